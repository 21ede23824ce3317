import type { EntityManager } from 'typeorm';

/**
 * Bare rows for the integration specs of busy time (account 1): what the busy-time reads and the
 * calendar lock need of them, and nothing else. Ids are the database's own, so that no two specs
 * (nor a run stopped midway) share a row.
 */

/** A calendar (UTC, no hours); its id. */
export async function insertCalendar(db: EntityManager, name: string): Promise<number> {
  const result: { insertId: number } = await db.query(
    `INSERT INTO calendars (account_id, name, description, timezone, hours, overrides, created_at, updated_at)
     VALUES (1, ?, '', 'UTC', '{}', '{}', NOW(3), NOW(3))`,
    [name],
  );
  return Number(result.insertId);
}

/** An appointment on `calendarId` over `[from, until)` (busy as long as it lasts). */
export function insertAppointment(
  db: EntityManager,
  calendarId: number,
  from: number,
  until: number,
  typeId = 1,
): Promise<unknown> {
  return db.query(
    `INSERT INTO appointments (account_id, appointment_type_id, calendar_id, starts_at, ends_at, busy_from, busy_until, created_at, updated_at)
     VALUES (1, ?, ?, ?, ?, ?, ?, NOW(3), NOW(3))`,
    [typeId, calendarId, ...[from, until, from, until].map((t) => new Date(t))],
  );
}
