import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../config/app-config';
import { AccountRepository } from './account.repository';
import { type AccountView, toAccountView } from './account.view';

/** The enterprise's members, in the `/me` shape, by id. */
export class ListEnterpriseMembersQuery extends Query<AccountView[]> {
  constructor(readonly enterpriseId: number) {
    super();
  }
}

@QueryHandler(ListEnterpriseMembersQuery)
export class ListEnterpriseMembersHandler implements IQueryHandler<ListEnterpriseMembersQuery> {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly config: AppConfig,
  ) {}

  async execute({ enterpriseId }: ListEnterpriseMembersQuery): Promise<AccountView[]> {
    const members = await this.accounts.membersOf(enterpriseId);
    return members.map((account) => toAccountView(account, this.config));
  }
}
