import { ApiProperty } from '@nestjs/swagger';
import { IsArray, IsDefined, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IfGiven, IsCalendarDate, IsMultiLine, IsNotBlank } from '../../common/http/attributes';
import { IsId, MAX_ID } from '../../common/http/id-attribute';
import { IdList, IdQuery } from '../../common/http/id-list';
import { requiredParameter } from '../../common/http/required-parameter';
import { LENIENT_DATETIME_RULE } from '../../common/time/datetimes';

export const MAX_BLOCK_NOTES = 4000;
export const DEFAULT_BLOCK_LIST_MAX = 100;
export const MAX_BLOCK_LIST_MAX = 1000;

/* Required as POST /appointments's parameters; `start`, `end` parsed in the calendar's zone. */
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

  @IfGiven(IsMultiLine(), MaxLength(MAX_BLOCK_NOTES), IsString())
  notes?: string;
}

/** `GET /blocks?max=&minDate=&maxDate=&calendarID=`. */
export class ListBlocksRequest {
  @IdQuery()
  @IfGiven(Max(MAX_BLOCK_LIST_MAX), Min(1), IsInt())
  max?: number;

  /** First day listed (inclusive), in the zone of the one calendar asked for, else the account's. */
  @IfGiven(IsCalendarDate(), IsString())
  minDate?: string;

  @IfGiven(IsCalendarDate(), IsString())
  maxDate?: string;

  @IdList()
  @IfGiven(Max(MAX_ID, { each: true }), Min(1, { each: true }), IsInt({ each: true }), IsArray())
  calendarID?: number[];
}
