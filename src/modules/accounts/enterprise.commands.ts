import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Secrets } from '../../common/crypto/secrets';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { AppConfig } from '../../config/app-config';
import { type AccountCredentials, CreateAccountCommand, newApiKey } from './account.commands';
import { AccountRepository } from './account.repository';
import { type AccountView, toAccountView } from './account.view';
import { assertName } from './account-rules';
import { AlreadyMemberError, InvalidRequestsPerMinuteError } from './accounts.errors';
import { AuthRevocations } from './auth-revocations';
import { DEFAULT_ENTERPRISE_REQUESTS_PER_MINUTE, Enterprise } from './enterprise.entity';
import type { CreateMemberRequest } from './enterprise-member.requests';
import { EnterpriseRepository } from './enterprise.repository';

/*
 * Enterprises: created, keyed and limited by the operator (CLI); members added by the CLI and
 * `/api/enterprise/v1/users`. An account joins at most one enterprise and cannot leave by the API.
 */

/** The highest per-enterprise limit an operator may set (INT UNSIGNED holds more; no need). */
export const MAX_REQUESTS_PER_MINUTE = 100_000_000;

export class CreateEnterpriseCommand extends Command<AccountCredentials> {
  constructor(readonly name: string) {
    super();
  }
}

@CommandHandler(CreateEnterpriseCommand)
export class CreateEnterpriseHandler implements ICommandHandler<CreateEnterpriseCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly enterprises: EnterpriseRepository,
    private readonly secrets: Secrets,
  ) {}

  async execute({ name }: CreateEnterpriseCommand): Promise<AccountCredentials> {
    const { apiKey, ...key } = newApiKey(this.secrets);
    const now = new Date();
    const enterprise = Object.assign(new Enterprise(), {
      name: assertName(name),
      ...key,
      requestsPerMinute: DEFAULT_ENTERPRISE_REQUESTS_PER_MINUTE,
      createdAt: now,
      updatedAt: now,
    });
    await this.work.run(null, (tx) => this.enterprises.insert(tx, enterprise));
    return { id: enterprise.id, apiKey };
  }
}

/** A new key; the old one stops working at once on every API process. */
export class RotateEnterpriseKeyCommand extends Command<AccountCredentials> {
  constructor(readonly enterpriseId: number) {
    super();
  }
}

@CommandHandler(RotateEnterpriseKeyCommand)
export class RotateEnterpriseKeyHandler implements ICommandHandler<RotateEnterpriseKeyCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly enterprises: EnterpriseRepository,
    private readonly secrets: Secrets,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ enterpriseId }: RotateEnterpriseKeyCommand): Promise<AccountCredentials> {
    const { apiKey, ...changes } = newApiKey(this.secrets);
    await this.work.run(null, (tx) => this.enterprises.update(tx, enterpriseId, changes));
    await this.revocations.announce({ kind: 'enterprise', id: enterpriseId });
    return { id: enterpriseId, apiKey };
  }
}

/** The enterprise's limit of requests per minute, all its members together. */
export class SetEnterpriseLimitCommand extends Command<{ id: number; requestsPerMinute: number }> {
  constructor(
    readonly enterpriseId: number,
    readonly requestsPerMinute: number,
  ) {
    super();
  }
}

@CommandHandler(SetEnterpriseLimitCommand)
export class SetEnterpriseLimitHandler implements ICommandHandler<SetEnterpriseLimitCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly enterprises: EnterpriseRepository,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ enterpriseId, requestsPerMinute }: SetEnterpriseLimitCommand) {
    if (
      !Number.isInteger(requestsPerMinute) ||
      requestsPerMinute < 1 ||
      requestsPerMinute > MAX_REQUESTS_PER_MINUTE
    )
      throw new InvalidRequestsPerMinuteError(MAX_REQUESTS_PER_MINUTE);
    await this.work.run(null, (tx) =>
      this.enterprises.update(tx, enterpriseId, { requestsPerMinute }),
    );
    await this.revocations.announce({ kind: 'enterprise', id: enterpriseId });
    return { id: enterpriseId, requestsPerMinute };
  }
}

/** Makes the account a member of the enterprise (one enterprise per account). */
export class AddEnterpriseMemberCommand extends Command<{
  enterpriseId: number;
  accountId: number;
}> {
  constructor(
    readonly enterpriseId: number,
    readonly accountId: number,
  ) {
    super();
  }
}

@CommandHandler(AddEnterpriseMemberCommand)
export class AddEnterpriseMemberHandler implements ICommandHandler<AddEnterpriseMemberCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly enterprises: EnterpriseRepository,
    private readonly accounts: AccountRepository,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ enterpriseId, accountId }: AddEnterpriseMemberCommand) {
    await this.work.run(accountId, async (tx) => {
      await this.enterprises.assertExists(tx, enterpriseId);
      if (await this.accounts.join(tx, accountId, enterpriseId)) return;
      const account = await this.accounts.get(accountId, tx);
      throw new AlreadyMemberError(accountId, account.enterpriseId ?? enterpriseId);
    });
    // The enterprise's credential now passes on the member's routes, on every API process.
    await this.revocations.announce({ kind: 'account', id: accountId });
    return { enterpriseId, accountId };
  }
}

/** A member as `POST /users` answers it: the `/me` shape, and its own API key, shown once. */
export type NewMemberView = AccountView & { apiKey: string };

export class CreateEnterpriseMemberCommand extends Command<NewMemberView> {
  constructor(
    readonly enterpriseId: number,
    readonly request: CreateMemberRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateEnterpriseMemberCommand)
export class CreateEnterpriseMemberHandler implements ICommandHandler<CreateEnterpriseMemberCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly accounts: AccountRepository,
    private readonly config: AppConfig,
  ) {}

  async execute({ enterpriseId, request }: CreateEnterpriseMemberCommand): Promise<NewMemberView> {
    const { id, apiKey } = await this.commands.execute(
      new CreateAccountCommand({ ...request, enterpriseId }),
    );
    return { ...toAccountView(await this.accounts.get(id), this.config), apiKey };
  }
}
