import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { Account } from './account.entity';
import { AccountNotFoundError } from './accounts.errors';
import { assertPassword } from './account-rules';
import { SetPasswordCommand } from './set-password.command';

@CommandHandler(SetPasswordCommand)
export class SetPasswordHandler implements ICommandHandler<SetPasswordCommand> {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly secrets: Secrets,
  ) {}

  async execute({ accountId, password }: SetPasswordCommand): Promise<{ id: number }> {
    const passwordHash = await this.secrets.hashPassword(assertPassword(password));
    const result = await this.accounts.update(
      { id: accountId },
      { passwordHash, updatedAt: new Date() },
    );
    if (!result.affected) throw new AccountNotFoundError(accountId);
    return { id: accountId };
  }
}
