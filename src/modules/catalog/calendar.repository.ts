import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import type { BusyKind } from './calendar-busy-kinds';
import { Calendar } from './calendar.entity';
import { RepositoryOf } from '../../common/database/tenant-repository';

@Injectable()
export class CalendarRepository extends RepositoryOf(Calendar) {}

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
