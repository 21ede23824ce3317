import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountQuery } from '../../common/cqrs/account-messages';
import { AppConfig } from '../../config/app-config';
import type { Account } from './account.entity';
import { AccountRepository } from './account.repository';
import { type AccountView, toAccountView } from './account.view';
import { type SettingsView, toSettingsView } from './settings.view';

export class GetSettingsQuery extends AccountQuery<SettingsView> {}

@QueryHandler(GetSettingsQuery)
export class GetSettingsHandler implements IQueryHandler<GetSettingsQuery> {
  constructor(private readonly accounts: AccountRepository) {}

  /** Read from the database, not the auth cache: an owner sees a change of another pod at once. */
  async execute({ accountId }: GetSettingsQuery): Promise<SettingsView> {
    return toSettingsView(await this.accounts.get(accountId));
  }
}

/** The account of an e-mail, or null (the CLI's demo seed reuses its account). */
export class FindAccountByEmailQuery extends Query<Account | null> {
  constructor(readonly email: string) {
    super();
  }
}

@QueryHandler(FindAccountByEmailQuery)
export class FindAccountByEmailHandler implements IQueryHandler<FindAccountByEmailQuery> {
  constructor(private readonly accounts: AccountRepository) {}

  execute({ email }: FindAccountByEmailQuery): Promise<Account | null> {
    return this.accounts.findByEmail(email);
  }
}

/** `GET /me`: the authenticated account, as the auth guard loaded it (no further read). */
export class GetMeQuery extends Query<AccountView> {
  constructor(readonly account: Account) {
    super();
  }
}

@QueryHandler(GetMeQuery)
export class GetMeHandler implements IQueryHandler<GetMeQuery> {
  constructor(private readonly config: AppConfig) {}

  execute({ account }: GetMeQuery): Promise<AccountView> {
    return Promise.resolve(toAccountView(account, this.config));
  }
}

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
