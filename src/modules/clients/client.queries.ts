import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { ClientRepository } from './client.repository';
import { type ListClientsRequest, MAX_CLIENT_LIST } from './client.requests';
import type { ClientView } from './client.view';

/** `GET /clients`: searched (ClientRepository.search), by last name then first name. */
export class ListClientsQuery extends Query<ClientView[]> {
  constructor(
    readonly accountId: number,
    readonly request: ListClientsRequest,
  ) {
    super();
  }
}

@QueryHandler(ListClientsQuery)
export class ListClientsHandler implements IQueryHandler<ListClientsQuery> {
  constructor(private readonly clients: ClientRepository) {}

  execute({ accountId, request }: ListClientsQuery): Promise<ClientView[]> {
    return this.clients.search(accountId, request.search, request.max ?? MAX_CLIENT_LIST);
  }
}
