import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { FormRepository } from './form.repository';
import type { FormView } from './form.view';

export class ListFormsQuery extends Query<FormView[]> {
  constructor(readonly accountId: number) {
    super();
  }
}

@QueryHandler(ListFormsQuery)
export class ListFormsHandler implements IQueryHandler<ListFormsQuery> {
  constructor(private readonly forms: FormRepository) {}

  async execute({ accountId }: ListFormsQuery): Promise<FormView[]> {
    return this.forms.views(accountId, await this.forms.list(accountId));
  }
}

export class GetFormQuery extends Query<FormView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@QueryHandler(GetFormQuery)
export class GetFormHandler implements IQueryHandler<GetFormQuery> {
  constructor(private readonly forms: FormRepository) {}

  async execute({ accountId, id }: GetFormQuery): Promise<FormView> {
    const [view] = await this.forms.views(accountId, [await this.forms.find(accountId, id)]);
    return view;
  }
}
