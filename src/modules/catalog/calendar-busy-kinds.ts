import type { DataSource, DeepPartial, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';

/**
 * The kinds of busy time a calendar may have besides appointments, one bit each in
 * `calendars.busy_kinds`: set (never cleared) in the transaction that writes a row of the kind for
 * the calendar (markBusyKind). A client booking's lock statement leaves out the subqueries of the
 * kinds its calendar never had (availability's lockCalendarReadingBusy): each costs the database
 * ~40 µs per booking even over an empty table.
 */
export const BusyKind = { blocks: 1, sessions: 2, holds: 4, external: 8 } as const;
export type BusyKind = (typeof BusyKind)[keyof typeof BusyKind];
export const ALL_BUSY_KINDS = 15;

/**
 * Records that the calendar has busy time of `kind`, in the writer's transaction, before the row
 * of the kind is written (the calendar row first, as a booking locks it: no lock upgrade, no
 * cycle). The UPDATE takes the calendar row's lock, as a booking's lock statement does, and keeps
 * it to the commit: a booking that read the bit unset under its lock cannot miss a committed row
 * of the kind, and a writer that comes after it waits for its commit. Always written, never skipped
 * when read as set: a skip would not hold the lock, and if the transaction that set the bit rolled
 * back, the row would be committed with its bit unset. An unchanged row costs no write.
 */
export async function markBusyKind(
  tx: EntityManager,
  kind: BusyKind,
  calendarId: number,
  accountId: number,
): Promise<void> {
  await queryPrepared(
    tx,
    'UPDATE calendars SET busy_kinds = busy_kinds | ? WHERE id = ? AND account_id = ?',
    [kind, calendarId, accountId],
  );
}

/**
 * Inserts a row of busy time of `kind` for the calendar (a block, a class session) in a
 * transaction of its own that marks the calendar's bit first (markBusyKind); the row as saved.
 */
export function insertBusyRow<T extends ObjectLiteral>(
  dataSource: DataSource,
  kind: BusyKind,
  calendar: { id: number; accountId: number },
  entity: EntityTarget<T>,
  values: DeepPartial<T>,
): Promise<T> {
  return dataSource.transaction(async (writer) => {
    await markBusyKind(writer, kind, calendar.id, calendar.accountId);
    return writer.save(entity, writer.create(entity, values));
  });
}
