import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import type { AccountCredentials } from './account-credentials';
import { Account } from './account.entity';
import { AccountNotFoundError } from './accounts.errors';
import { AuthRevocations } from './auth-revocations';
import { RotateApiKeyCommand } from './rotate-api-key.command';

@CommandHandler(RotateApiKeyCommand)
export class RotateApiKeyHandler implements ICommandHandler<RotateApiKeyCommand> {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly secrets: Secrets,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ accountId }: RotateApiKeyCommand): Promise<AccountCredentials> {
    const apiKey = Secrets.generate();
    const result = await this.accounts.update(
      { id: accountId },
      {
        apiKeyHash: this.secrets.hash(apiKey),
        apiKeyEncrypted: this.secrets.encrypt(apiKey),
        updatedAt: new Date(),
      },
    );
    if (!result.affected) throw new AccountNotFoundError(accountId);
    // Committed (one statement): the old key stops working on every API process.
    await this.revocations.announce({ kind: 'account', id: accountId });
    return { id: accountId, apiKey };
  }
}
