import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { IsMoney, IsName, IsNameUpdate, Optional } from '../../common/http/attributes';

/** Longest an addon may lengthen an appointment: a day. */
export const MAX_ADDON_MINUTES = 1440;

export class CreateAddonRequest {
  @IsName()
  name!: string;

  /** Minutes the addon adds to the appointment. */
  @Optional()
  @Max(MAX_ADDON_MINUTES)
  @Min(0)
  @IsInt()
  duration?: number;

  @Optional()
  @IsMoney()
  price?: number | string;

  @Optional()
  @IsBoolean()
  private?: boolean;
}

export class UpdateAddonRequest {
  @IsNameUpdate()
  name?: string;

  @Optional()
  @Max(MAX_ADDON_MINUTES)
  @Min(0)
  @IsInt()
  duration?: number;

  @Optional()
  @IsMoney()
  price?: number | string;

  @Optional()
  @IsBoolean()
  private?: boolean;
}
