import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AccountCommand } from '../../common/cqrs/account-messages';
import { Secrets } from '../../common/crypto/secrets';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { Account } from './account.entity';
import { AccountRepository } from './account.repository';
import {
  DEFAULT_ACCOUNT_TIMEZONE,
  assertAccentColor,
  assertEmail,
  assertEmbedOrigin,
  assertLanguage,
  assertLogoUrl,
  assertName,
  assertPassword,
  assertTimezone,
} from './account-rules';
import { AuthRevocations } from './auth-revocations';
import type { UpdateSettingsRequest } from './settings.requests';
import { PLAIN_SETTINGS, type SettingsView, toSettingsView } from './settings.view';

/** What an operator receives once, when an account (or an enterprise) is created or its key rotated. */
export interface AccountCredentials {
  id: number;
  apiKey: string;
}

/** A new API key, and what is stored of it: its keyed hash and its sealed copy. */
export function newApiKey(secrets: Secrets) {
  const apiKey = Secrets.generate();
  return { apiKey, apiKeyHash: secrets.hash(apiKey), apiKeyEncrypted: secrets.encrypt(apiKey) };
}

export interface NewAccount {
  email: string;
  name: string;
  timezone?: string;
  password?: string;
  enterpriseId?: number;
}

export class CreateAccountCommand extends Command<AccountCredentials> {
  constructor(readonly account: NewAccount) {
    super();
  }
}

@CommandHandler(CreateAccountCommand)
export class CreateAccountHandler implements ICommandHandler<CreateAccountCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly secrets: Secrets,
  ) {}

  async execute({ account: input }: CreateAccountCommand): Promise<AccountCredentials> {
    const email = assertEmail(input.email);
    const name = assertName(input.name);
    const timezone = assertTimezone(input.timezone ?? DEFAULT_ACCOUNT_TIMEZONE);
    const password = input.password === undefined ? undefined : assertPassword(input.password);

    const { apiKey, ...key } = newApiKey(this.secrets);
    const now = new Date();
    const account = Object.assign(new Account(), {
      email,
      name,
      timezone,
      currency: 'USD',
      firstDayOfWeek: 0,
      timeFormat: 'ampm',
      plan: 'standard',
      passwordHash: password === undefined ? null : await this.secrets.hashPassword(password),
      ...key,
      enterpriseId: input.enterpriseId ?? null,
      createdAt: now,
      updatedAt: now,
    });
    await this.work.run(null, (tx) => this.accounts.insert(tx, account));
    return { id: account.id, apiKey };
  }
}

/** Replaces an account's API key; the old one stops working at once on every API process. */
export class RotateApiKeyCommand extends Command<AccountCredentials> {
  constructor(readonly accountId: number) {
    super();
  }
}

@CommandHandler(RotateApiKeyCommand)
export class RotateApiKeyHandler implements ICommandHandler<RotateApiKeyCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly secrets: Secrets,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ accountId }: RotateApiKeyCommand): Promise<AccountCredentials> {
    const { apiKey, ...changes } = newApiKey(this.secrets);
    await this.work.run(accountId, (tx) => this.accounts.update(tx, accountId, changes));
    await this.revocations.announce({ kind: 'account', id: accountId });
    return { id: accountId, apiKey };
  }
}

/** Sets the password an account's owner signs in with (the OAuth consent screen). */
export class SetPasswordCommand extends AccountCommand<string, { id: number }> {}

@CommandHandler(SetPasswordCommand)
export class SetPasswordHandler implements ICommandHandler<SetPasswordCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly secrets: Secrets,
  ) {}

  async execute({ accountId, request: password }: SetPasswordCommand): Promise<{ id: number }> {
    const passwordHash = await this.secrets.hashPassword(assertPassword(password));
    await this.work.run(accountId, (tx) => this.accounts.update(tx, accountId, { passwordHash }));
    return { id: accountId };
  }
}

export class UpdateSettingsCommand extends AccountCommand<UpdateSettingsRequest, SettingsView> {}

@CommandHandler(UpdateSettingsCommand)
export class UpdateSettingsHandler implements ICommandHandler<UpdateSettingsCommand> {
  constructor(
    private readonly work: UnitOfWork,
    private readonly accounts: AccountRepository,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ accountId, request }: UpdateSettingsCommand): Promise<SettingsView> {
    const changes: Partial<Account> = {};
    if (request.timezone !== undefined) changes.timezone = assertTimezone(request.timezone);
    for (const key of PLAIN_SETTINGS)
      if (request[key] !== undefined) Object.assign(changes, { [key]: request[key] });
    if (request.embedOrigins !== undefined)
      changes.embedOrigins = [...new Set(request.embedOrigins.map(assertEmbedOrigin))];
    if (request.language !== undefined) changes.language = assertLanguage(request.language);
    if (request.accentColor !== undefined)
      changes.accentColor =
        request.accentColor === null ? null : assertAccentColor(request.accentColor);
    if (request.logoUrl !== undefined)
      changes.logoUrl = request.logoUrl === null ? null : assertLogoUrl(request.logoUrl);
    if (Object.keys(changes).length === 0)
      return toSettingsView(await this.accounts.get(accountId));
    const settings = await this.work.run(accountId, async (tx) => {
      await this.accounts.update(tx, accountId, changes);
      return toSettingsView(await this.accounts.get(accountId, tx));
    });
    // No API process may keep the old zone or rules in its cached account (GET /me, booking).
    await this.revocations.announce({ kind: 'account', id: accountId });
    return settings;
  }
}
