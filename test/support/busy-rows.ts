import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

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

/**
 * Another booking's transaction, left open: it holds the calendar's lock with an appointment over
 * `[from, until)` inserted.
 */
export async function bookingInFlight(
  dataSource: DataSource,
  calendarId: number,
  from: number,
  until: number,
  typeId?: number,
): Promise<QueryRunner> {
  const holder = dataSource.createQueryRunner();
  await holder.startTransaction();
  await holder.query('SELECT id FROM calendars WHERE id = ? FOR UPDATE', [calendarId]);
  await insertAppointment(holder.manager, calendarId, from, until, typeId);
  return holder;
}

/**
 * `read` in a transaction of its own while `holder` (bookingInFlight) holds the calendar's lock:
 * expects it still waiting after 300 ms, commits `holder`, and answers what `read` read then. Both
 * transactions are ended and released.
 */
export async function readAfterCommit<T>(
  dataSource: DataSource,
  holder: QueryRunner,
  read: (db: EntityManager) => Promise<T>,
): Promise<T> {
  const waiter = dataSource.createQueryRunner();
  await waiter.startTransaction();
  try {
    let settled = false;
    const reading = read(waiter.manager);
    void reading.finally(() => (settled = true)).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    await holder.commitTransaction();
    return await reading;
  } finally {
    await waiter.rollbackTransaction();
    await Promise.all([holder.release(), waiter.release()]);
  }
}
