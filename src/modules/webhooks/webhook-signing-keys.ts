import { Injectable } from '@nestjs/common';
import { Secrets } from '../../common/crypto/secrets';

/** Distinct keys remembered at most; past it the cache starts again (a few KB per thousand). */
const MAX_KEYS = 10_000;

/**
 * The signing key of webhooks: the API key, stored encrypted. Decrypting costs more than the rest
 * of an attempt, so keys are remembered by their ciphertext; the delivery reads the current one
 * with the message, so a rotated key signs the very next attempt (no expiry to wait for).
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
