import { IsBoolean } from 'class-validator';
import { IsMoney, IsName, IsNameUpdate, Optional } from '../../common/http/attributes';
import { IsIntBetween } from './catalog-attributes';

/** Longest an addon may lengthen an appointment: a day. */
const MAX_ADDON_MINUTES = 1440;

/** The attributes create and update share (validated after `name`, which each declares). */
class AddonAttributes {
  /** Minutes the addon adds to the appointment. */
  @IsIntBetween(0, MAX_ADDON_MINUTES)
  duration?: number;

  @Optional()
  @IsMoney()
  price?: number | string;

  @Optional()
  @IsBoolean()
  private?: boolean;
}

export class CreateAddonRequest extends AddonAttributes {
  @IsName()
  name!: string;
}

export class UpdateAddonRequest extends AddonAttributes {
  @IsNameUpdate()
  name?: string;
}
