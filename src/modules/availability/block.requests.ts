import { Transform } from 'class-transformer';
import {
  IsArray,
  IsDefined,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { DateTime } from 'luxon';
import { IsNotBlank, Optional } from '../../common/http/attributes';
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
  @MaxLength(MAX_BLOCK_NOTES)
  @IsString()
  notes?: string;
}

/** A whole number in a query string (`"10"` → 10); anything else is kept for the validators to refuse. */
const WholeNumberQuery = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value,
  );

const DATE_TEXT = /^[1-9]\d{3}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` naming a day of the calendar (`2026-02-30` is not one). */
const IsCalendarDate = () =>
  ValidateBy({
    name: 'isCalendarDate',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        DATE_TEXT.test(value) &&
        DateTime.fromFormat(value, 'yyyy-MM-dd', { zone: 'utc' }).isValid,
    },
  });

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
