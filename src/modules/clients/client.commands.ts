import { Command, CommandHandler } from '@nestjs/cqrs';
import { AccountCommand } from '../../common/cqrs/account-messages';
import { WriteHandler } from '../../common/cqrs/write-handler';
import type { EntityManager } from 'typeorm';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { identityKey, nameKey, phoneKey } from './client-details';
import type { Client } from './client.entity';
import { ClientRepository } from './client.repository';
import type {
  ClientMatchRequest,
  CreateClientRequest,
  UpdateClientRequest,
} from './client.requests';
import { type ClientView, toClientView } from './client.view';
import { AmbiguousClientError, ClientNotFoundError, DuplicateClientError } from './clients.errors';

/** What writing to the client list takes. */
abstract class ClientListHandler extends WriteHandler(ClientRepository) {
  /**
   * The account's one client of that name (case-insensitive), with that phone (by its digits) and
   * e-mail when given, locked. None: 404; several: `ambiguous_client`.
   */
  protected async matchOne(tx: EntityManager, accountId: number, query: ClientMatchRequest) {
    const candidates = await this.rows.lockNamed(tx, accountId, query.firstName, query.lastName);
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

/** Adds a client; the same person again (identityKey) is refused: `duplicate_client`. */
export class CreateClientCommand extends AccountCommand<CreateClientRequest, ClientView> {}

@CommandHandler(CreateClientCommand)
export class CreateClientHandler extends ClientListHandler {
  async execute({ accountId, request }: CreateClientCommand): Promise<ClientView> {
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
    await this.unitOfWork.run(accountId, (tx) =>
      refusingDuplicates(client, this.rows.insert(tx, client)),
    );
    return toClientView(client);
  }
}

/** Changes the one client the query names (its row locked); not into another (`duplicate_client`). */
export class UpdateClientCommand extends Command<ClientView> {
  constructor(
    readonly accountId: number,
    readonly query: ClientMatchRequest,
    readonly request: UpdateClientRequest,
  ) {
    super();
  }
}

@CommandHandler(UpdateClientCommand)
export class UpdateClientHandler extends ClientListHandler {
  execute({ accountId, query, request }: UpdateClientCommand): Promise<ClientView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const changed = { ...(await this.matchOne(tx, accountId, query)) };
      if (request.firstName !== undefined) changed.firstName = request.firstName;
      if (request.lastName !== undefined) changed.lastName = request.lastName;
      if (request.email !== undefined) changed.email = request.email.toLowerCase();
      if (request.phone !== undefined) changed.phone = request.phone;
      if (request.notes !== undefined) changed.notes = request.notes;
      changed.identityKey = identityKey(changed);
      changed.updatedAt = new Date();
      await refusingDuplicates(changed, this.rows.update(tx, changed));
      return toClientView(changed);
    });
  }
}

/** Removes the one client the query names; appointments keep their own copy of the details. */
export class DeleteClientCommand extends AccountCommand<ClientMatchRequest, void> {}

@CommandHandler(DeleteClientCommand)
export class DeleteClientHandler extends ClientListHandler {
  execute({ accountId, request: query }: DeleteClientCommand): Promise<void> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const client = await this.matchOne(tx, accountId, query);
      await this.rows.delete(tx, client.id);
    });
  }
}

/** `duplicate_client` when the write's details are another client's. */
async function refusingDuplicates(
  details: Pick<Client, 'firstName' | 'lastName'>,
  write: Promise<void>,
): Promise<void> {
  try {
    await write;
  } catch (e) {
    if (isDuplicateEntry(e)) throw new DuplicateClientError(details);
    throw e;
  }
}
