import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { insertRows } from '../../common/database/insert-rows';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { identityKey, nameKey, phoneKey } from './client-details';
import { Client } from './client.entity';
import type {
  ClientMatchQuery,
  CreateClientRequest,
  ListClientsQuery,
  UpdateClientRequest,
} from './client.requests';
import { MAX_CLIENT_LIST } from './client.requests';
import { type ClientView, toClientView } from './client.view';
import { AmbiguousClientError, ClientNotFoundError, DuplicateClientError } from './clients.errors';

/** `%`, `_` and the escape character itself, taken literally by LIKE. */
const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A search that reads as a phone number: phone characters only, three digits or more. */
const PHONE_SEARCH = /^(?=(?:\D*\d){3})[\d\s+().-]+$/;

/**
 * The business's client list: searched, added to, changed and removed by the owner; bookings add
 * to it too (upsertBookingClient). Every statement is scoped by the account.
 */
@Injectable()
export class ClientsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * By last name, then first name. `search` is a case- and accent-insensitive substring of the
   * first name, last name, full name, e-mail or phone (the columns' unicode_ci collation), and of
   * the phone's digits when it reads as a phone number. The account's rows are read through the
   * index on (account_id, last_name, first_name), in order: no sort, at most `max` rows.
   */
  async list(accountId: number, { search, max }: ListClientsQuery): Promise<ClientView[]> {
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
    const rows = await this.dataSource.query<ClientView[]>(
      `SELECT first_name AS firstName, last_name AS lastName, email, phone, notes
         FROM clients
        WHERE account_id = ?${where.length > 0 ? ` AND (${where.join(' OR ')})` : ''}
        ORDER BY last_name, first_name, id
        LIMIT ?`,
      [...params, max ?? MAX_CLIENT_LIST],
    );
    return rows.map(toClientView);
  }

  /** Adds a client; the same person again (identityKey) is refused: `duplicate_client`. */
  async create(accountId: number, request: CreateClientRequest): Promise<ClientView> {
    const now = new Date();
    const details = {
      firstName: request.firstName,
      lastName: request.lastName,
      email: (request.email ?? '').toLowerCase(),
      phone: request.phone ?? '',
    };
    const client: Omit<Client, 'id'> = {
      accountId,
      identityKey: identityKey(details),
      ...details,
      notes: request.notes ?? '',
      createdAt: now,
      updatedAt: now,
    };
    try {
      await insertRows(this.dataSource.manager, Client, [client as Client]);
    } catch (e) {
      if (isDuplicateEntry(e)) throw new DuplicateClientError(client);
      throw e;
    }
    return toClientView(client);
  }

  /**
   * Changes the one client the query names (its row locked while it is read and written): what the
   * body gives; the new details must not be another client's (`duplicate_client`).
   */
  update(
    accountId: number,
    query: ClientMatchQuery,
    request: UpdateClientRequest,
  ): Promise<ClientView> {
    return this.dataSource.transaction(async (tx) => {
      const client = await this.matchOne(tx, accountId, query);
      const changed = { ...client };
      if (request.firstName !== undefined) changed.firstName = request.firstName;
      if (request.lastName !== undefined) changed.lastName = request.lastName;
      if (request.email !== undefined) changed.email = request.email.toLowerCase();
      if (request.phone !== undefined) changed.phone = request.phone;
      if (request.notes !== undefined) changed.notes = request.notes;
      changed.identityKey = identityKey(changed);
      changed.updatedAt = new Date();
      const { id, ...values } = changed;
      try {
        await tx.update(Client, { id }, values);
      } catch (e) {
        if (isDuplicateEntry(e)) throw new DuplicateClientError(changed);
        throw e;
      }
      return toClientView(changed);
    });
  }

  /** Removes the one client the query names; appointments keep their own copy of the details. */
  async delete(accountId: number, query: ClientMatchQuery): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const client = await this.matchOne(tx, accountId, query);
      await tx.delete(Client, { id: client.id });
    });
  }

  /**
   * The account's one client of that first and last name (case-insensitive), with that phone (by
   * its digits) and e-mail when given, locked. None: 404; several: `ambiguous_client`.
   */
  private async matchOne(
    tx: EntityManager,
    accountId: number,
    query: ClientMatchQuery,
  ): Promise<Client> {
    // The collation finds the name's rows by the index (accents ignored too); the exact rule is below.
    const candidates = await tx.find(Client, {
      where: { accountId, firstName: query.firstName, lastName: query.lastName },
      lock: { mode: 'pessimistic_write' },
    });
    const matching = candidates.filter(
      (c) =>
        nameKey(c.firstName) === nameKey(query.firstName) &&
        nameKey(c.lastName) === nameKey(query.lastName) &&
        (query.phone === undefined ||
          (c.phone !== '' && phoneKey(c.phone) === phoneKey(query.phone))) &&
        (query.email === undefined || c.email === query.email.toLowerCase()),
    );
    if (matching.length === 0) throw new ClientNotFoundError(query);
    if (matching.length > 1) throw new AmbiguousClientError(query);
    return matching[0];
  }
}
