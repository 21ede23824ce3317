import { Transform } from 'class-transformer';
import { IsArray, IsDefined, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDate, IsMultiLine, IsNotBlank, Optional } from '../../common/http/attributes';
import { IdList } from '../../common/http/id-list';

const MAX_INT32 = 2_147_483_647;

export const MAX_BLOCK_NOTES = 4000;
export const DEFAULT_BLOCK_LIST_MAX = 100;
export const MAX_BLOCK_LIST_MAX = 1000;

/*
 * `message` as well as `context`: class-validator attaches a context only to a failure with a
 * non-empty message, and IsNotBlank has none of its own.
 */
const required = (attribute: string) => {
  const message = `The parameter "${attribute}" is required.`;
  return {
    message,
    context: {
      code: `required_${attribute === 'calendarID' ? 'calendar_id' : attribute}`,
      message,
    },
  };
};

/*
 * The required messages are the ones POST /appointments gives for its parameters. `start` and `end`
 * are parsed by the service, in the calendar's zone (which it has to look up first).
 */
export class CreateBlockRequest {
  @Max(MAX_INT32)
  @Min(1)
  @IsInt()
  @IsDefined(required('calendarID'))
  calendarID!: number;

  /** `2026-03-03T09:00`, read in the calendar's zone unless it carries an offset. */
  @IsNotBlank(required('start'))
  @IsString()
  @IsDefined(required('start'))
  start!: string;

  @IsNotBlank(required('end'))
  @IsString()
  @IsDefined(required('end'))
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
export class ListBlocksQuery {
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
  @Max(MAX_INT32, { each: true })
  @Min(1, { each: true })
  @IsInt({ each: true })
  @IsArray()
  calendarID?: number[];
}
