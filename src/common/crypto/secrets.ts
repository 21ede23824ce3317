import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

const CIPHER = 'aes-256-gcm';
const FORMAT = 'v1';

function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'scheduling-service', purpose, 32));
}

/**
 * The server's secrets toolbox, keyed by APP_SECRET: encryption for secrets used again (an API key
 * signs webhooks), keyed hashes for those only recognised (tokens, codes), password hashing.
 * Every comparison is constant-time.
 */
@Injectable()
export class Secrets {
  private readonly encryptionKey: Buffer;
  private readonly hashKey: Buffer;

  constructor(config: AppConfig) {
    this.encryptionKey = deriveKey(config.secret, 'encryption');
    this.hashKey = deriveKey(config.secret, 'hash');
  }

  /** Random secret as lowercase hex (`bytes` of entropy). */
  static generate(bytes = 16): string {
    return randomBytes(bytes).toString('hex');
  }

  /**
   * AES-256-GCM. `context` (authenticated, not stored) tells what the value is for: a value sealed
   * for one context does not open in another (an encrypted API key is no session cookie).
   */
  encrypt(plain: string, context?: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv(CIPHER, this.encryptionKey, iv);
    if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT, iv, body, tag]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  decrypt(sealed: string, context?: string): string {
    const [format, iv, body, tag] = sealed.split('.');
    if (format !== FORMAT || !iv || body === undefined || !tag) {
      throw new Error('Unrecognised encrypted value');
    }
    const decipher = createDecipheriv(CIPHER, this.encryptionKey, canonicalBytes(iv));
    if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(canonicalBytes(tag));
    return Buffer.concat([decipher.update(canonicalBytes(body)), decipher.final()]).toString(
      'utf8',
    );
  }

  /** Keyed hash (HMAC-SHA256, hex) of a secret, for storage and lookup. */
  hash(secret: string): string {
    return createHmac('sha256', this.hashKey).update(secret, 'utf8').digest('hex');
  }

  /** Whether `secret` hashes to `expectedHash`, in constant time. */
  matches(secret: string, expectedHash: string): boolean {
    const actual = Buffer.from(this.hash(secret), 'hex');
    const expected = Buffer.from(expectedHash, 'hex');
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  async hashPassword(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await scryptAsync(password, salt, SCRYPT);
    const { N, r, p } = SCRYPT;
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  }

  async verifyPassword(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, salt, key] = stored.split('$');
    if (scheme !== 'scrypt' || !salt || !key) return false;
    const expected = Buffer.from(key, 'base64url');
    const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), {
      N: Number(n),
      r: Number(r),
      p: Number(p),
    });
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }
}

const SCRYPT = { N: 16384, r: 8, p: 1 };

function scryptAsync(
  password: string,
  salt: Buffer,
  params: { N: number; r: number; p: number },
): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 64, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/**
 * The bytes of a base64url part, refusing any spelling but encrypt()'s: Node ignores a last
 * character's unused bits, so several sealed texts (an altered one) would open to the same value.
 */
function canonicalBytes(part: string): Buffer {
  const bytes = Buffer.from(part, 'base64url');
  if (bytes.toString('base64url') !== part) throw new Error('Unrecognised encrypted value');
  return bytes;
}
