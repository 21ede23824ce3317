import { Command } from '@nestjs/cqrs';
import type { AccountCredentials } from './account-credentials';

/** Replaces an account's API key; the old one stops working at once on every API process. */
export class RotateApiKeyCommand extends Command<AccountCredentials> {
  constructor(readonly accountId: number) {
    super();
  }
}
