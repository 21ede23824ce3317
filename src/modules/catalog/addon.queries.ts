import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AddonRepository } from './addon.repository';
import { type AddonView, toAddonView } from './addon.view';

export class ListAddonsQuery extends Query<AddonView[]> {
  constructor(readonly accountId: number) {
    super();
  }
}

@QueryHandler(ListAddonsQuery)
export class ListAddonsHandler implements IQueryHandler<ListAddonsQuery> {
  constructor(private readonly addons: AddonRepository) {}

  async execute({ accountId }: ListAddonsQuery): Promise<AddonView[]> {
    return (await this.addons.list(accountId)).map(toAddonView);
  }
}

export class GetAddonQuery extends Query<AddonView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetAddonQuery)
export class GetAddonHandler implements IQueryHandler<GetAddonQuery> {
  constructor(private readonly addons: AddonRepository) {}

  async execute({ accountId, id }: GetAddonQuery): Promise<AddonView> {
    return toAddonView(await this.addons.find(accountId, id));
  }
}
