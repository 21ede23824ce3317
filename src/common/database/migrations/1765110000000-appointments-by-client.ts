import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A client's appointments in an account, by start: what `pastFormAnswers=true` reads (the client's
 * earlier appointments) and `GET /appointments?email=` filters by, without scanning the account's
 * whole history.
 */
export class AppointmentsByClient1765110000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE INDEX idx_appointments_account_email ON appointments (account_id, email, starts_at)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX idx_appointments_account_email ON appointments');
  }
}
