import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The client pages: how many hours before its start a client may still cancel or
 * reschedule an appointment (0: until it starts, as before), and the sites allowed to frame the
 * pages (none by default).
 */
export class ClientPages1765500000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE accounts ' +
        'ADD COLUMN client_change_min_hours INT UNSIGNED NOT NULL DEFAULT 0, ' +
        'ADD COLUMN embed_origins JSON NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE accounts DROP COLUMN client_change_min_hours, DROP COLUMN embed_origins',
    );
  }
}
