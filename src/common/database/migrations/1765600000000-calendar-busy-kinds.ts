import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `calendars.busy_kinds`: one bit per kind of busy time besides appointments that the calendar has
 * ever had (1 blocks, 2 class sessions, 4 slot holds of services, 8 external busy spans; catalog's BusyKind),
 * so that a client booking's lock statement reads only those. Existing calendars get the
 * bits of the rows they have, so the upgrade is exact; from then on each writer sets its bit.
 */
export class CalendarBusyKinds1765600000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE calendars ADD COLUMN busy_kinds TINYINT UNSIGNED NOT NULL DEFAULT 0',
    );
    await q.query(
      `UPDATE calendars c SET busy_kinds =
          IF(EXISTS (SELECT 1 FROM blocks b WHERE b.calendar_id = c.id), 1, 0)
        | IF(EXISTS (SELECT 1 FROM classes s WHERE s.calendar_id = c.id), 2, 0)
        | IF(EXISTS (SELECT 1 FROM slot_holds h WHERE h.calendar_id = c.id AND h.class_id IS NULL), 4, 0)
        | IF(EXISTS (SELECT 1 FROM external_busy_spans x WHERE x.calendar_id = c.id), 8, 0)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE calendars DROP COLUMN busy_kinds');
  }
}
