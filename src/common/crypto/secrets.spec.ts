import { AppConfig } from '../../config/app-config';
import { Secrets } from './secrets';

const config = (secret: string) => AppConfig.fromEnvironment({ APP_SECRET: secret });

describe('Secrets', () => {
  const secrets = new Secrets(config('a'.repeat(32)));

  it('encrypts to a different text each time and decrypts back', () => {
    const a = secrets.encrypt('0123456789abcdef');
    const b = secrets.encrypt('0123456789abcdef');
    expect(a).not.toEqual(b);
    expect(a).not.toContain('0123456789abcdef');
    expect(secrets.decrypt(a)).toBe('0123456789abcdef');
  });

  it('refuses a ciphertext that was tampered with or sealed under another secret', () => {
    const sealed = secrets.encrypt('key');
    const parts = sealed.split('.');
    parts[2] = Buffer.from('kez').toString('base64url');
    expect(() => secrets.decrypt(parts.join('.'))).toThrow();
    expect(() => new Secrets(config('b'.repeat(32))).decrypt(sealed)).toThrow();
    expect(() => secrets.decrypt('garbage')).toThrow('Unrecognised encrypted value');
  });

  it('refuses another spelling of the same bytes (unused bits of a last base64url character)', () => {
    const sealed = secrets.encrypt('key');
    const parts = sealed.split('.');
    // A 16-byte tag is 22 characters: the last one's 4 low bits are unused. Flip the lowest.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(parts[3].slice(-1));
    parts[3] = parts[3].slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(parts[3], 'base64url')).toEqual(
      Buffer.from(sealed.split('.')[3], 'base64url'),
    );
    expect(() => secrets.decrypt(parts.join('.'))).toThrow('Unrecognised encrypted value');
  });

  it('opens a value sealed for a context only in that context', () => {
    const sealed = secrets.encrypt('{"accountId":1}', 'oauth-session');
    expect(secrets.decrypt(sealed, 'oauth-session')).toBe('{"accountId":1}');
    expect(() => secrets.decrypt(sealed)).toThrow();
    expect(() => secrets.decrypt(sealed, 'other')).toThrow();
    expect(() => secrets.decrypt(secrets.encrypt('api-key'), 'oauth-session')).toThrow();
  });

  it('hashes with the server secret and matches only the same secret', () => {
    const hash = secrets.hash('api-key');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(secrets.matches('api-key', hash)).toBe(true);
    expect(secrets.matches('api-kez', hash)).toBe(false);
    expect(secrets.matches('api-key', 'abcd')).toBe(false);
    expect(new Secrets(config('b'.repeat(32))).hash('api-key')).not.toBe(hash);
  });

  it('hashes passwords with a salt and verifies them', async () => {
    const stored = await secrets.hashPassword('correct horse');
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await secrets.hashPassword('correct horse')).not.toBe(stored);
    await expect(secrets.verifyPassword('correct horse', stored)).resolves.toBe(true);
    await expect(secrets.verifyPassword('wrong horse', stored)).resolves.toBe(false);
    await expect(secrets.verifyPassword('correct horse', 'plain')).resolves.toBe(false);
  });

  it('generates hex secrets of the asked entropy', () => {
    expect(Secrets.generate()).toMatch(/^[0-9a-f]{32}$/);
    expect(Secrets.generate(32)).toMatch(/^[0-9a-f]{64}$/);
  });
});
