import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The busy-time index covers what the busy read filters and returns (busy_until, canceled): the
 * rows of a calendar's range are read from the index alone, without one clustered-row lookup each.
 * The range spans MAX_BUSY_SPAN_MINUTES (3 days) before the time asked about: on a full calendar,
 * hundreds of rows per booking.
 */
export class CoveringBusyIndex1764600000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE appointments
        DROP INDEX idx_appointments_calendar_busy,
        ADD INDEX idx_appointments_calendar_busy (calendar_id, busy_from, busy_until, canceled)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE appointments
        DROP INDEX idx_appointments_calendar_busy,
        ADD INDEX idx_appointments_calendar_busy (calendar_id, busy_from)`);
  }
}
