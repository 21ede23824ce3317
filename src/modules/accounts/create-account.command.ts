import { Command } from '@nestjs/cqrs';
import type { AccountCredentials } from './account-credentials';

export interface NewAccount {
  email: string;
  name: string;
  timezone?: string;
  password?: string;
}

export class CreateAccountCommand extends Command<AccountCredentials> {
  constructor(readonly account: NewAccount) {
    super();
  }
}
