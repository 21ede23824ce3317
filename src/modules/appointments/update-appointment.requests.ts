import { IsArray, IsBoolean, IsString } from 'class-validator';
import { IsMultiLine, Optional } from '../../common/http/attributes';

/**
 * `PUT /appointments/{id}`: only what is given changes; attributes not listed here are dropped by
 * the validation pipe (the contract: "other attributes are ignored"). Only the JSON types are
 * checked here; the rules are booking's, applied by the handler.
 */
export class UpdateAppointmentRequest {
  @Optional()
  @IsString()
  firstName?: string;

  @Optional()
  @IsString()
  lastName?: string;

  @Optional()
  @IsString()
  email?: string;

  @Optional()
  @IsString()
  phone?: string;

  /** `[{id, value}]`: the answers given replace those stored; a blank value removes one. */
  @Optional()
  @IsArray()
  fields?: unknown[];

  /** `[{id}]` (at most one), or `[]` to remove the label. */
  @Optional()
  @IsArray()
  labels?: unknown[];

  @Optional()
  @IsBoolean()
  smsOptIn?: boolean;

  /** Admins only; ignored otherwise (checked anyway, as its type is). */
  @Optional()
  @IsMultiLine()
  @IsString()
  notes?: string;

  /** Admins only; ignored otherwise. `""` removes the certificate (and gives a package's use back). */
  @Optional()
  @IsString()
  certificate?: string;
}
