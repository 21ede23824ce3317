import { Command } from '@nestjs/cqrs';
import type { AccountCredentials } from './account-credentials';

/** Replaces an account's API key; the old one stops working (within AUTH_CACHE_TTL_MS on other pods). */
export class RotateApiKeyCommand extends Command<AccountCredentials> {
  constructor(readonly accountId: number) {
    super();
  }
}
