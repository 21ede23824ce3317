import { Injectable } from '@nestjs/common';
import { Secrets } from '../../common/crypto/secrets';

/** Distinct keys remembered at most; past it the cache starts again (a few KB per thousand). */
const MAX_KEYS = 10_000;

/**
 * The signing key of an account's webhooks: its API key, stored encrypted (accounts have one user
 * here, so the main admin's key of static webhooks and the user's of dynamic ones are the same).
 *
 * Decrypting costs more than the rest of preparing an attempt, so keys are remembered, by their
 * ciphertext: the delivery reads the account's current ciphertext with the message, so a rotated
 * key signs the very next attempt (no time-based invalidation to wait for), and a key is decrypted
 * once per worker.
 */
@Injectable()
export class WebhookSigningKeys {
  private readonly keys = new Map<string, string>();

  constructor(private readonly secrets: Secrets) {}

  keyOf(apiKeyEncrypted: string): string {
    let key = this.keys.get(apiKeyEncrypted);
    if (key === undefined) {
      key = this.secrets.decrypt(apiKeyEncrypted);
      if (this.keys.size >= MAX_KEYS) this.keys.clear();
      this.keys.set(apiKeyEncrypted, key);
    }
    return key;
  }
}
