import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsDefined, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDate, IsMultiLine, IsNotBlank, Optional } from '../../common/http/attributes';
import { IsId, MAX_ID } from '../../common/http/id-attribute';
import { IdList } from '../../common/http/id-list';
import { requiredParameter } from '../../common/http/required-parameter';
import { LENIENT_DATETIME_RULE } from '../../common/time/datetimes';

export const MAX_BLOCK_NOTES = 4000;
export const DEFAULT_BLOCK_LIST_MAX = 100;
export const MAX_BLOCK_LIST_MAX = 1000;

/*
 * The required messages are the ones POST /appointments gives for its parameters. `start` and `end`
 * are parsed by the service, in the calendar's zone (which it has to look up first).
 */
export class CreateBlockRequest {
  @IsId()
  @IsDefined(requiredParameter('calendarID'))
  calendarID!: number;

  /** `2026-03-03T09:00`, read in the calendar's zone unless it carries an offset. */
  @ApiProperty({ description: `The first moment blocked. ${LENIENT_DATETIME_RULE}` })
  @IsNotBlank(requiredParameter('start'))
  @IsString()
  @IsDefined(requiredParameter('start'))
  start!: string;

  @ApiProperty({ description: `The end, after the start. ${LENIENT_DATETIME_RULE}` })
  @IsNotBlank(requiredParameter('end'))
  @IsString()
  @IsDefined(requiredParameter('end'))
  end!: string;

  /** Defaults to "". */
  @Optional()
  @IsMultiLine()
  @MaxLength(MAX_BLOCK_NOTES)
  @IsString()
  notes?: string;
}

/** A whole number in a query string (`"10"` → 10); anything else is kept for the validators to refuse. */
const WholeNumberQuery = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
  );

/** `GET /blocks?max=&minDate=&maxDate=&calendarID=`. */
export class ListBlocksRequest {
  /** At most this many blocks, the earliest first (default 100). */
  @WholeNumberQuery()
  @Optional()
  @Max(MAX_BLOCK_LIST_MAX)
  @Min(1)
  @IsInt()
  max?: number;

  /** First day listed (inclusive), in the zone of the one calendar asked for, else the account's. */
  @Optional()
  @IsCalendarDate()
  @IsString()
  minDate?: string;

  /** Last day listed (inclusive). */
  @Optional()
  @IsCalendarDate()
  @IsString()
  maxDate?: string;

  @IdList()
  @Optional()
  @Max(MAX_ID, { each: true })
  @Min(1, { each: true })
  @IsInt({ each: true })
  @IsArray()
  calendarID?: number[];
}
