import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Team scheduling (docs/team-scheduling.md): how a type assigns a booking that names no calendar,
 * each calendar's weight, and each calendar's place in a `round-robin` type's rotation (the start
 * and finish tags of its last turn, in the type's virtual time).
 */
export class TeamScheduling1766100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE appointment_types
      ADD COLUMN assignment VARCHAR(16) NOT NULL DEFAULT 'first',
      ADD COLUMN assignment_weights JSON NULL`);
    await q.query(`CREATE TABLE calendar_turns (
        account_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        served_from DOUBLE NOT NULL,
        served_until DOUBLE NOT NULL,
        turns INT UNSIGNED NOT NULL,
        last_assigned_at DATETIME(3) NOT NULL,
        PRIMARY KEY (account_id, appointment_type_id, calendar_id)
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE calendar_turns');
    await q.query(`ALTER TABLE appointment_types DROP COLUMN assignment_weights,
      DROP COLUMN assignment`);
  }
}
