import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { insertRows } from '../../common/database/insert-rows';
import { queryPrepared } from '../../common/database/prepared';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { Appointment } from '../availability';
import { type RecurrenceSettings, isRecurrenceSettings } from '../catalog';
import { AppointmentSeries } from './appointment-series.entity';
import { lockRowsWhere } from '../../common/database/row-locks';

/** Series' rows, and the appointments that are their occurrences (docs/series.md). */
@Injectable()
export class SeriesRepository extends RepositoryOf(AppointmentSeries) {
  /** Inserts a series (every column given), answering its id. */
  async insert(tx: EntityManager, series: Omit<AppointmentSeries, 'id'>): Promise<number> {
    return Number(await insertRows(tx, AppointmentSeries, [series]));
  }

  /** What the type lets its clients book as a series (null: none), in one prepared statement. */
  async typeRecurrence(accountId: number, typeId: number): Promise<RecurrenceSettings | null> {
    const [row] = await queryPrepared<{ recurrence: unknown }[]>(
      this.dataSource.manager,
      'SELECT recurrence FROM appointment_types WHERE id = ? AND account_id = ?',
      [typeId, accountId],
    );
    // MariaDB's JSON is text; MySQL's is parsed by the driver.
    const value: unknown =
      typeof row?.recurrence === 'string' ? JSON.parse(row.recurrence) : row?.recurrence;
    return isRecurrenceSettings(value) ? value : null;
  }

  /**
   * The series' appointments, canceled ones included, by start (idx_appointments_series); with
   * `forUpdate`, locked in `tx` (a cancel of the series).
   */
  async occurrences(
    seriesId: number,
    tx?: EntityManager,
    forUpdate = false,
  ): Promise<Appointment[]> {
    if (forUpdate && tx) await lockRowsWhere(tx, 'appointments', 'series_id = ?', [seriesId]);
    return (tx ?? this.dataSource.manager).find(Appointment, {
      where: { seriesId },
      order: { startsAt: 'ASC', id: 'ASC' },
    });
  }

  /**
   * A savepoint in the booking's transaction: a series tried on one calendar and refused there is
   * undone to it before the next calendar is tried (the locks stay).
   */
  async savepoint(tx: EntityManager): Promise<void> {
    await tx.query('SAVEPOINT series_calendar');
  }

  async rollbackToSavepoint(tx: EntityManager): Promise<void> {
    await tx.query('ROLLBACK TO SAVEPOINT series_calendar');
  }
}
