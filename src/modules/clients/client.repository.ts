import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { insertRows } from '../../common/database/insert-rows';
import { queryPrepared } from '../../common/database/prepared';
import { type ClientDetails, identityKey } from './client-details';
import { Client } from './client.entity';
import type { ClientView } from './client.view';
import { lockRowsWhere } from '../../common/database/row-locks';

/** `%`, `_` and the escape character itself, taken literally by LIKE. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A search that reads as a phone number: phone characters only, three digits or more. */
const PHONE_SEARCH = /^(?=(?:\D*\d){3})[\d\s+().-]+$/;

/** TypeORM loads the entities modules name. */
export const ClientTables = TypeOrmModule.forFeature([Client]);

/** Every statement is scoped by the account. */
@Injectable()
export class ClientRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * `search`: a case- and accent-insensitive (the collation) substring of the first, last or full
   * name, e-mail or phone, or of the phone's digits when it reads as one. Read in order through the
   * index (account_id, last_name, first_name): no sort, at most `max` rows.
   */
  search(accountId: number, search: string | undefined, max: number): Promise<ClientView[]> {
    const text = search?.replace(/\s+/g, ' ');
    const where: string[] = [];
    const params: unknown[] = [accountId];
    if (text) {
      const like = likeText(text);
      where.push(
        'first_name LIKE ?',
        'last_name LIKE ?',
        "CONCAT(first_name, ' ', last_name) LIKE ?",
        'email LIKE ?',
        'phone LIKE ?',
      );
      params.push(like, like, like, like, like);
      if (PHONE_SEARCH.test(text)) {
        where.push("REGEXP_REPLACE(phone, '[^0-9]', '') LIKE ?");
        params.push(likeText(text.replace(/\D/g, '')));
      }
    }
    return this.dataSource.query<ClientView[]>(
      `SELECT first_name AS firstName, last_name AS lastName, email, phone, notes
         FROM clients
        WHERE account_id = ?${where.length > 0 ? ` AND (${where.join(' OR ')})` : ''}
        ORDER BY last_name, first_name, id
        LIMIT ?`,
      [...params, max],
    );
  }

  async insert(tx: EntityManager, client: Omit<Client, 'id'>): Promise<void> {
    await insertRows(tx, Client, [client as Client]);
  }

  /**
   * Locked (lockRowsWhere). The collation finds them by the index, ignoring case
   * and accents: the caller decides.
   */
  async lockNamed(
    tx: EntityManager,
    accountId: number,
    firstName: string,
    lastName: string,
  ): Promise<Client[]> {
    await lockRowsWhere(tx, 'clients', 'account_id = ? AND first_name = ? AND last_name = ?', [
      accountId,
      firstName,
      lastName,
    ]);
    return tx.find(Client, { where: { accountId, firstName, lastName } });
  }

  async update(tx: EntityManager, { id, ...values }: Client): Promise<void> {
    await tx.update(Client, { id }, values);
  }

  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.delete(Client, { id });
  }
}

/**
 * In the booking's transaction, one statement: the person (identityKey) is added, or their record
 * takes the booking's name, e-mail and phone (a detail left empty is kept; the notes are the
 * owner's). The unique key makes bookings racing for one new client write one row: the first
 * inserts it, the others wait for its lock and update it. `details` as the appointment stores them.
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
