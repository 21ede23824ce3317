import { IsBoolean, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsMoney, IsNotBlank, IsNotCleared, Optional, Trim } from '../../common/http/attributes';

/** Longest an addon may lengthen an appointment: a day. */
export const MAX_ADDON_MINUTES = 1440;

export class CreateAddonRequest {
  @Trim()
  @IsNotBlank()
  @MaxLength(255)
  @IsString()
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
  @Trim()
  @Optional()
  @IsNotCleared()
  @MaxLength(255)
  @IsString()
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
