import type { EntityManager } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { type ClientDetails, identityKey } from './client-details';

/**
 * Brings the client list up to date with a booking, inside the booking's transaction, in one
 * statement: the person (identityKey) is added, or their record takes the booking's spelling of the
 * name and its e-mail and phone (a detail the booking leaves empty is kept). The unique key
 * `(account_id, identity_key)` makes bookings racing for one new client write one row: the first
 * inserts it, the others wait for its lock and update it. The notes are the owner's, never touched.
 * `details` as the appointment stores them (trimmed, the e-mail lower-cased).
 */
export async function upsertBookingClient(
  tx: EntityManager,
  accountId: number,
  details: ClientDetails,
  now: Date,
): Promise<void> {
  await queryPrepared(
    tx,
    `INSERT INTO clients
       (account_id, identity_key, first_name, last_name, email, phone, notes, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, '', ?, ?)
     ON DUPLICATE KEY UPDATE
       first_name = VALUES(first_name),
       last_name = VALUES(last_name),
       email = IF(VALUES(email) = '', email, VALUES(email)),
       phone = IF(VALUES(phone) = '', phone, VALUES(phone)),
       updated_at = VALUES(updated_at)`,
    [
      accountId,
      identityKey(details),
      details.firstName,
      details.lastName,
      details.email,
      details.phone,
      now,
      now,
    ],
  );
}
