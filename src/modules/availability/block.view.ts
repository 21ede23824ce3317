import {
  formatClockTime,
  formatInZone,
  formatLongDate,
  momentInZone,
} from '../../common/time/datetimes';
import type { Calendar } from '../catalog';
import type { Block } from './block.entity';
import { datetime, id, text, viewSchema, type ViewType } from '../../common/openapi/view-schema';

/** A block as `GET /blocks` shows it, in its calendar's zone. */
export type BlockView = ViewType<typeof BLOCK_VIEW>;

export function toBlockView(block: Block, calendar: Calendar): BlockView {
  return {
    id: block.id,
    calendarID: block.calendarId,
    start: formatInZone(block.startsAt, calendar.timezone),
    end: formatInZone(block.endsAt, calendar.timezone),
    notes: block.notes,
    description: describeSpan(block.startsAt, block.endsAt, calendar.timezone),
  };
}

/**
 * `March 3, 2026 9:00am - 10:30am` when both ends fall on one local date of `zone`, else `March 3,
 * 2026 9:00am - March 5, 2026 6:00pm` (the appointments' date and time formats).
 */
export function describeSpan(start: Date, end: Date, zone: string): string {
  const from = momentInZone(start, zone);
  const until = momentInZone(end, zone);
  const fromDate = formatLongDate(from);
  const untilDate = formatLongDate(until);
  return `${fromDate} ${formatClockTime(from)} - ${fromDate === untilDate ? '' : `${untilDate} `}${formatClockTime(until)}`;
}

export const BLOCK_VIEW = viewSchema('BlockView', {
  id: id(8),
  calendarID: id(7),
  start: datetime('2030-06-03T09:00:00-0400'),
  end: datetime('2030-06-03T10:30:00-0400'),
  notes: text('Lunch'),
  /** With both dates when it spans several days (describeSpan). */
  description: text('June 3, 2030 9:00am - 10:30am'),
});
