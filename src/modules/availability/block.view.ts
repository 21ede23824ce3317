import { DateTime } from 'luxon';
import { formatInZone } from '../../common/time/datetimes';
import type { Calendar } from '../catalog/calendar.entity';
import type { Block } from './block.entity';

/** A block as `GET /blocks` shows it, in its calendar's zone. */
export interface BlockView {
  id: number;
  calendarID: number;
  /** `2026-03-03T09:00:00-0500`. */
  start: string;
  end: string;
  notes: string;
  /** `March 3, 2026 9:00am - 10:30am`, or with both dates when it spans several days. */
  description: string;
}

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
 * `March 3, 2026 9:00am - 10:30am` when both ends fall on one local date of `zone`, else
 * `March 3, 2026 9:00am - March 5, 2026 6:00pm`. Built by hand, not with luxon's `a`, so the text
 * does not depend on the process's locale data.
 */
export function describeSpan(start: Date, end: Date, zone: string): string {
  const from = DateTime.fromJSDate(start, { zone });
  const until = DateTime.fromJSDate(end, { zone });
  const sameDay = from.toISODate() === until.toISODate();
  return `${dateText(from)} ${timeText(from)} - ${sameDay ? '' : `${dateText(until)} `}${timeText(until)}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function dateText(moment: DateTime): string {
  return `${MONTHS[moment.month - 1]} ${moment.day}, ${moment.year}`;
}

function timeText(moment: DateTime): string {
  const hour = moment.hour % 12 === 0 ? 12 : moment.hour % 12;
  const minute = String(moment.minute).padStart(2, '0');
  return `${hour}:${minute}${moment.hour < 12 ? 'am' : 'pm'}`;
}
