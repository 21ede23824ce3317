import { IsArray, IsBoolean, IsString } from 'class-validator';
import { IfGiven, IsMultiLine } from '../../common/http/attributes';

/**
 * `PUT /appointments/{id}`: only what is given changes, other attributes are dropped (the contract:
 * "other attributes are ignored"). JSON types only: the rules are booking's, in the handler.
 */
export class UpdateAppointmentRequest {
  @IfGiven(IsString())
  firstName?: string;

  @IfGiven(IsString())
  lastName?: string;

  @IfGiven(IsString())
  email?: string;

  @IfGiven(IsString())
  phone?: string;

  /** `[{id, value}]`: the answers given replace those stored; a blank value removes one. */
  @IfGiven(IsArray())
  fields?: unknown[];

  /** `[{id}]` (at most one), or `[]` to remove the label. */
  @IfGiven(IsArray())
  labels?: unknown[];

  @IfGiven(IsBoolean())
  smsOptIn?: boolean;

  /** Admins only; ignored otherwise (checked anyway, as its type is). */
  @IfGiven(IsMultiLine(), IsString())
  notes?: string;

  /** Admins only; ignored otherwise. `""` removes the certificate (and gives a package's use back). */
  @IfGiven(IsString())
  certificate?: string;
}
