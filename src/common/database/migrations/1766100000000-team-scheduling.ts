import type { MigrationInterface, QueryRunner } from 'typeorm';
import { TABLE_OPTIONS } from './table-options';

/**
 * Team scheduling (docs/team-scheduling.md): how a type assigns a booking that names no calendar,
 * each calendar's weight, and each calendar's place in a `round-robin` type's rotation (the start
 * and finish tags of its last turn, in the type's virtual time). Collective types: an appointment
 * (or a hold) takes its host's calendar as any does and lists the others in `member_calendar_ids`;
 * each of those has a row in `appointment_members` (or `slot_hold_members`), read as busy time by
 * (calendar_id, busy_from) as appointments are.
 */
export class TeamScheduling1766100000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE appointment_types
      ADD COLUMN assignment VARCHAR(16) NOT NULL DEFAULT 'first',
      ADD COLUMN assignment_weights JSON NULL,
      ADD COLUMN collective BOOLEAN NOT NULL DEFAULT FALSE`);
    await q.query('ALTER TABLE appointments ADD COLUMN member_calendar_ids JSON NULL');
    await q.query('ALTER TABLE slot_holds ADD COLUMN member_calendar_ids JSON NULL');
    for (const [table, owner] of [
      ['appointment_members', 'appointment_id'],
      ['slot_hold_members', 'hold_id'],
    ])
      await q.query(`CREATE TABLE ${table} (
          account_id INT UNSIGNED NOT NULL,
          ${owner} INT UNSIGNED NOT NULL,
          calendar_id INT UNSIGNED NOT NULL,
          busy_from DATETIME(3) NOT NULL,
          busy_until DATETIME(3) NOT NULL,
          PRIMARY KEY (account_id, ${owner}, calendar_id),
          INDEX idx_${table}_calendar_busy (calendar_id, busy_from, busy_until, ${owner})
        ) ${TABLE_OPTIONS}`);
    await q.query(`CREATE TABLE calendar_turns (
        account_id INT UNSIGNED NOT NULL,
        appointment_type_id INT UNSIGNED NOT NULL,
        calendar_id INT UNSIGNED NOT NULL,
        served_from DOUBLE NOT NULL,
        served_until DOUBLE NOT NULL,
        last_assigned_at DATETIME(3) NOT NULL,
        PRIMARY KEY (account_id, appointment_type_id, calendar_id)
      ) ${TABLE_OPTIONS}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE slot_hold_members');
    await q.query('DROP TABLE appointment_members');
    await q.query('ALTER TABLE slot_holds DROP COLUMN member_calendar_ids');
    await q.query('ALTER TABLE appointments DROP COLUMN member_calendar_ids');
    await q.query('DROP TABLE calendar_turns');
    await q.query(`ALTER TABLE appointment_types DROP COLUMN collective,
      DROP COLUMN assignment_weights, DROP COLUMN assignment`);
  }
}
