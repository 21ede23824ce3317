import { DataSource } from 'typeorm';
import type { ApiClient, ApiResponse } from '../support/api-client';

/** Monday 2030-06-03 in New York (-0400); types look 10 years ahead so that it is bookable. */
export const MONDAY = '2030-06-03';
export const HORIZON = { maxDaysInAdvance: 3650 };
export const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };
/** Every day 09:00–17:00. */
export const NINE_TO_FIVE = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ start: '09:00', end: '17:00' }],
  ]),
);
export const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

/** The times `/availability/times` offers for the type (and calendar) on `date`, as `HH:MM`. */
export async function offeredTimes(
  api: ApiClient,
  typeId: number,
  calendarId: number,
  date = MONDAY,
): Promise<string[]> {
  const res = await api.get(
    `/availability/times?appointmentTypeID=${typeId}&calendarID=${calendarId}&date=${date}`,
  );
  if (res.status !== 200) throw new Error(`times → ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { time: string }[]).map((t) => t.time.slice(11, 16));
}

/** Live holds of a calendar (expiry compared with the test's clock, as the service's). */
export async function liveHolds(db: DataSource, calendarId: number): Promise<number> {
  const [row] = await db.query<{ n: string }[]>(
    'SELECT COUNT(*) AS n FROM slot_holds WHERE calendar_id = ? AND expires_at > ?',
    [calendarId, new Date()],
  );
  return Number(row.n);
}

export async function liveAppointments(db: DataSource, where: string, p: unknown[]) {
  const [row] = await db.query<{ n: string }[]>(
    `SELECT COUNT(*) AS n FROM appointments WHERE canceled = 0 AND ${where}`,
    p,
  );
  return Number(row.n);
}

/** Ends a hold now, as time would: its expiry moved into the past, the row left for the sweeper. */
export async function expireHold(db: DataSource, holdId: number): Promise<void> {
  await db.query('UPDATE slot_holds SET expires_at = ? WHERE id = ?', [
    new Date(Date.now() - 1000),
    holdId,
  ]);
}

/** The answers' statuses and codes, counted: `{ '200': 1, '400 not_available': 99 }`. */
export function tally(answers: ApiResponse[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) {
    const key = a.status === 200 ? '200' : `${a.status} ${(a.body as { error: string }).error}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
