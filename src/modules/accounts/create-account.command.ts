import { Command } from '@nestjs/cqrs';
import type { AccountCredentials } from './account-credentials';

export interface NewAccount {
  email: string;
  name: string;
  timezone?: string;
  password?: string;
  /** The enterprise the account is a member of from the start. */
  enterpriseId?: number;
}

export class CreateAccountCommand extends Command<AccountCredentials> {
  constructor(readonly account: NewAccount) {
    super();
  }
}
