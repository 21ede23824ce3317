import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { findOwned } from '../../common/database/tenant-rows';
import { AppointmentType } from '../catalog';

/** What `GET /appointment-types/{id}/assignment-stats` reads (assignment-stats.query.ts). */
@Injectable()
export class AssignmentStatsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The account's type, deleted or not: 404, or 403 for another account's (findOwned). */
  type(accountId: number, typeId: number): Promise<AppointmentType> {
    return findOwned(this.db.getRepository(AppointmentType), accountId, typeId, {
      includeDeleted: true,
    });
  }

  /** The type's live calendars, ascending id. */
  calendars(
    accountId: number,
    typeId: number,
  ): Promise<{ id: number; name: string; timezone: string }[]> {
    return queryPrepared(
      this.db.manager,
      `SELECT c.id, c.name, c.timezone FROM appointment_type_calendars l
         JOIN calendars c ON c.id = l.calendar_id AND c.deleted_at IS NULL
        WHERE l.appointment_type_id = ? AND c.account_id = ?
        ORDER BY c.id`,
      [typeId, accountId],
    );
  }

  /**
   * One pass over the type's appointments, by calendar (the host's): how many live ones start in
   * `range`, and the latest creation whatever the range.
   */
  byCalendar(
    accountId: number,
    typeId: number,
    range: { from: Date; until: Date },
  ): Promise<{ calendarId: number; n: string | number; last: Date }[]> {
    return queryPrepared(
      this.db.manager,
      `SELECT calendar_id AS calendarId,
              SUM(canceled = 0 AND starts_at >= ? AND starts_at < ?) AS n,
              MAX(created_at) AS last
         FROM appointments WHERE account_id = ? AND appointment_type_id = ?
        GROUP BY calendar_id`,
      [range.from, range.until, accountId, typeId],
    );
  }
}
