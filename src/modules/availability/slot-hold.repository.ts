import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { MINUTE } from '../../common/time/durations';
import { MAX_BUSY_SPAN_MINUTES } from './busy-time';
import type { DayShare } from './page-hold-share';
import type { SlotContext } from './slot-context';
import { type Span, kept } from './working-time';

/** What a booking reads of the hold it books. */
interface HeldRow {
  id: number;
  appointmentTypeId: number;
  calendarId: number;
  startsAt: Date;
}

/** The account's live hold with this token's hash, if any (prepared: it is on the booking's path). */
export async function liveHold(
  manager: EntityManager,
  accountId: number,
  tokenHash: Buffer,
): Promise<HeldRow | undefined> {
  const [row] = await queryPrepared<HeldRow[]>(
    manager,
    `SELECT id, appointment_type_id AS appointmentTypeId, calendar_id AS calendarId,
            starts_at AS startsAt
       FROM slot_holds WHERE token_hash = ? AND account_id = ? AND expires_at > ?`,
    [tokenHash, accountId, new Date()],
  );
  return row;
}

/** Deletes the live hold `id`; whether there was one. */
export async function deleteLiveHold(tx: EntityManager, holdId: number): Promise<boolean> {
  const result = await queryPrepared<{ affectedRows: number }>(
    tx,
    'DELETE FROM slot_holds WHERE id = ? AND expires_at > ?',
    [holdId, new Date()],
  );
  return Boolean(result.affectedRows);
}

/** The busy spans of the live page holds of services on these calendars, by calendar. */
export async function pageHoldSpans(
  tx: EntityManager,
  accountId: number,
  calendarIds: number[],
  window: Span,
  now: number,
): Promise<Map<number, Span[]>> {
  const rows = await queryPrepared<{ calendarId: number; busyFrom: Date; busyUntil: Date }[]>(
    tx,
    `SELECT calendar_id AS calendarId, busy_from AS busyFrom, busy_until AS busyUntil
       FROM slot_holds
      WHERE account_id = ? AND calendar_id IN (?) AND busy_from >= ? AND busy_from < ?
        AND busy_until > ? AND expires_at > ? AND class_id IS NULL AND origin = 'page'`,
    [
      accountId,
      calendarIds,
      new Date(window.from - MAX_BUSY_SPAN_MINUTES * MINUTE),
      new Date(window.until),
      new Date(window.from),
      new Date(now),
    ],
  );
  const spans = new Map<number, Span[]>();
  for (const { calendarId, busyFrom, busyUntil } of rows) {
    const span = { from: new Date(busyFrom).getTime(), until: new Date(busyUntil).getTime() };
    kept(spans, Number(calendarId), (): Span[] => []).push(span);
  }
  return spans;
}

/** A class's day: the seats of its sessions that day, and those page holds take. */
export async function classDayShare(
  tx: EntityManager,
  type: SlotContext['type'],
  calendarIds: number[],
  day: Span,
  now: number,
): Promise<DayShare> {
  if (calendarIds.length === 0) return { offered: 0, taken: 0 };
  const sessions = [type.accountId, type.id, calendarIds, new Date(day.from), new Date(day.until)];
  const [row] = await queryPrepared<{ sessions: number | string; held: number | string }[]>(
    tx,
    `SELECT COUNT(*) AS sessions,
            (SELECT COUNT(*) FROM slot_holds h JOIN classes hs ON hs.id = h.class_id
              WHERE h.account_id = ? AND hs.appointment_type_id = ? AND hs.calendar_id IN (?)
                AND hs.starts_at >= ? AND hs.starts_at < ?
                AND h.expires_at > ? AND h.origin = 'page') AS held
       FROM classes s
      WHERE s.account_id = ? AND s.appointment_type_id = ? AND s.calendar_id IN (?)
        AND s.starts_at >= ? AND s.starts_at < ?`,
    [...sessions, new Date(now), ...sessions],
  );
  return { offered: Number(row.sessions) * (type.classSize ?? 0), taken: Number(row.held) };
}
