import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { isDuplicateEntry } from '../../common/database/mysql-errors';
import { UnitOfWork } from '../../common/database/unit-of-work';
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

/** Adds a client; the same person again (identityKey) is refused: `duplicate_client`. */
export class CreateClientCommand extends Command<ClientView> {
  constructor(
    readonly accountId: number,
    readonly request: CreateClientRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateClientCommand)
export class CreateClientHandler implements ICommandHandler<CreateClientCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clients: ClientRepository,
  ) {}

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
      refusingDuplicates(client, this.clients.insert(tx, client)),
    );
    return toClientView(client);
  }
}

/**
 * Changes the one client the query names (its row locked while it is read and written): what the
 * body gives; the new details must not be another client's (`duplicate_client`).
 */
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
export class UpdateClientHandler implements ICommandHandler<UpdateClientCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clients: ClientRepository,
  ) {}

  execute({ accountId, query, request }: UpdateClientCommand): Promise<ClientView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const changed = { ...(await matchOne(this.clients, tx, accountId, query)) };
      if (request.firstName !== undefined) changed.firstName = request.firstName;
      if (request.lastName !== undefined) changed.lastName = request.lastName;
      if (request.email !== undefined) changed.email = request.email.toLowerCase();
      if (request.phone !== undefined) changed.phone = request.phone;
      if (request.notes !== undefined) changed.notes = request.notes;
      changed.identityKey = identityKey(changed);
      changed.updatedAt = new Date();
      await refusingDuplicates(changed, this.clients.update(tx, changed));
      return toClientView(changed);
    });
  }
}

/** Removes the one client the query names; appointments keep their own copy of the details. */
export class DeleteClientCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly query: ClientMatchRequest,
  ) {
    super();
  }
}

@CommandHandler(DeleteClientCommand)
export class DeleteClientHandler implements ICommandHandler<DeleteClientCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clients: ClientRepository,
  ) {}

  execute({ accountId, query }: DeleteClientCommand): Promise<void> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const client = await matchOne(this.clients, tx, accountId, query);
      await this.clients.delete(tx, client.id);
    });
  }
}

/** A write of these details, `duplicate_client` when they are another client's. */
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

/**
 * The account's one client of that first and last name (case-insensitive), with that phone (by
 * its digits) and e-mail when given, locked. None: 404; several: `ambiguous_client`.
 */
async function matchOne(
  clients: ClientRepository,
  tx: EntityManager,
  accountId: number,
  query: ClientMatchRequest,
): Promise<Client> {
  const candidates = await clients.lockNamed(tx, accountId, query.firstName, query.lastName);
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
