import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { isDuplicateEntry, isMissingParentRow } from '../../common/database/mysql-errors';
import type { AccountCredentials } from './account-credentials';
import { Account } from './account.entity';
import {
  DEFAULT_ACCOUNT_TIMEZONE,
  assertEmail,
  assertName,
  assertPassword,
  assertTimezone,
} from './account-rules';
import { EmailTakenError, EnterpriseNotFoundError } from './accounts.errors';
import { CreateAccountCommand } from './create-account.command';

@CommandHandler(CreateAccountCommand)
export class CreateAccountHandler implements ICommandHandler<CreateAccountCommand> {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly secrets: Secrets,
  ) {}

  async execute({ account: input }: CreateAccountCommand): Promise<AccountCredentials> {
    const email = assertEmail(input.email);
    const name = assertName(input.name);
    const timezone = assertTimezone(input.timezone ?? DEFAULT_ACCOUNT_TIMEZONE);
    const password = input.password === undefined ? undefined : assertPassword(input.password);

    const apiKey = Secrets.generate();
    const now = new Date();
    const account = this.accounts.create({
      email,
      name,
      timezone,
      currency: 'USD',
      firstDayOfWeek: 0,
      timeFormat: 'ampm',
      plan: 'standard',
      passwordHash: password === undefined ? null : await this.secrets.hashPassword(password),
      apiKeyHash: this.secrets.hash(apiKey),
      apiKeyEncrypted: this.secrets.encrypt(apiKey),
      enterpriseId: input.enterpriseId ?? null,
      createdAt: now,
      updatedAt: now,
    });
    try {
      await this.accounts.insert(account);
    } catch (e) {
      if (isDuplicateEntry(e)) throw new EmailTakenError(email);
      // The enterprise's foreign key: no such enterprise.
      if (isMissingParentRow(e) && input.enterpriseId !== undefined) {
        throw new EnterpriseNotFoundError(input.enterpriseId);
      }
      throw e;
    }
    return { id: account.id, apiKey };
  }
}
