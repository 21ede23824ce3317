import { Injectable } from '@nestjs/common';
import { Secrets } from '../../common/crypto/secrets';
import type { Account } from '../accounts';
import { SignInAccountRepository } from './sign-in-account.repository';

const MAX_EMAIL = 254;
const MAX_PASSWORD = 1024;

/**
 * The owner's sign-in on the authorization page: e-mail and the password the operator set
 * (`account:set-password`, scrypt). An unknown e-mail or an account without password costs the same
 * scrypt as a wrong password, so the time does not tell which e-mails exist.
 */
@Injectable()
export class AccountPasswords {
  private decoy: Promise<string> | undefined;

  constructor(
    private readonly accounts: SignInAccountRepository,
    private readonly secrets: Secrets,
  ) {}

  async verify(email: string, password: string): Promise<Account | null> {
    const normalized = email.trim().toLowerCase();
    const account =
      normalized !== '' && normalized.length <= MAX_EMAIL
        ? await this.accounts.byEmail(normalized)
        : null;
    const stored = account?.passwordHash ?? (await this.decoyHash());
    const matches = await this.secrets.verifyPassword(password.slice(0, MAX_PASSWORD), stored);
    return account?.passwordHash && matches ? account : null;
  }

  private decoyHash(): Promise<string> {
    return (this.decoy ??= this.secrets.hashPassword(Secrets.generate()));
  }
}
