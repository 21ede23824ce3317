import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsDefined, IsInt, IsString, Min } from 'class-validator';
import { BooleanQuery, IfGiven } from '../../common/http/attributes';
import { SUPPORTED_YEARS_RULE } from '../../common/time/calendar-dates';
import { IsId } from '../../common/http/id-attribute';
import { IdList, IdQuery } from '../../common/http/id-list';
import { requiredParameter } from '../../common/http/required-parameter';

/** What every availability question names: the type, and optionally the calendar, zone and addons. */
class SlotQuery {
  @ApiProperty({ description: 'The appointment type asked about.', example: 1 })
  @IdQuery()
  @IsId()
  @IsDefined(requiredParameter('appointmentTypeID'))
  appointmentTypeID!: number;

  @IdQuery()
  @IfGiven(IsId())
  calendarID?: number;

  /** The zone to show times and read dates in (checked by the service, to name the value). */
  @ApiPropertyOptional({
    description: "An IANA zone to show times and read dates in; default: the calendar's.",
    example: 'America/New_York',
  })
  @IfGiven(IsString())
  timezone?: string;

  @ApiPropertyOptional({
    description:
      'Addons the booking would have (their minutes lengthen it): `addonIDs[]=3&addonIDs[]=4`, `addonIDs=3,4`.',
  })
  @IdList()
  @IfGiven(Min(1, { each: true }), IsInt({ each: true }), IsArray())
  addonIDs?: number[];
}

export class AvailableDatesRequest extends SlotQuery {
  /** `YYYY-MM` (checked by the service, to name the value). */
  @ApiProperty({
    description: `The month, \`YYYY-MM\`. ${SUPPORTED_YEARS_RULE}`,
    pattern: '^\\d{4}-\\d{2}$',
    example: '2030-06',
  })
  @IsString()
  @IsDefined(requiredParameter('month'))
  month!: string;
}

export class AvailableTimesRequest extends SlotQuery {
  /** `YYYY-MM-DD` (checked by the service, to name the value). */
  @ApiProperty({
    description: `The date, \`YYYY-MM-DD\`. ${SUPPORTED_YEARS_RULE}`,
    format: 'date',
    example: '2030-06-03',
  })
  @IsString()
  @IsDefined(requiredParameter('date'))
  date!: string;

  /** Appointments to leave out (a reschedule sees its own slot as free). */
  @IdList()
  @IfGiven(Min(1, { each: true }), IsInt({ each: true }), IsArray())
  ignoreAppointmentIDs?: number[];
}

export class AvailableClassesRequest {
  @IdQuery()
  @IfGiven(IsId())
  appointmentTypeID?: number;

  @IdQuery()
  @IfGiven(IsId())
  calendarID?: number;

  @IfGiven(IsString())
  timezone?: string;

  @IfGiven(IsString())
  month?: string;

  @IfGiven(IsString())
  minDate?: string;

  @IfGiven(IsString())
  maxDate?: string;

  @BooleanQuery()
  @IfGiven(IsBoolean())
  includeUnavailable?: boolean;

  /** Sessions of private class types too (left out otherwise, even when the type is named). */
  @BooleanQuery()
  @IfGiven(IsBoolean())
  includePrivate?: boolean;
}
