import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { LabelRepository } from './label.repository';
import { type LabelView, toLabelView } from './label.view';

export class ListLabelsQuery extends Query<LabelView[]> {
  constructor(readonly accountId: number) {
    super();
  }
}

@QueryHandler(ListLabelsQuery)
export class ListLabelsHandler implements IQueryHandler<ListLabelsQuery> {
  constructor(private readonly labels: LabelRepository) {}

  async execute({ accountId }: ListLabelsQuery): Promise<LabelView[]> {
    return (await this.labels.list(accountId)).map(toLabelView);
  }
}

export class GetLabelQuery extends Query<LabelView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetLabelQuery)
export class GetLabelHandler implements IQueryHandler<GetLabelQuery> {
  constructor(private readonly labels: LabelRepository) {}

  async execute({ accountId, id }: GetLabelQuery): Promise<LabelView> {
    return toLabelView(await this.labels.find(accountId, id));
  }
}
