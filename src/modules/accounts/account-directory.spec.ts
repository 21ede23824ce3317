import pino from 'pino';
import { Secrets } from '../../common/crypto/secrets';
import type { AppConfig } from '../../config/app-config';
import { AccountDirectory } from './keyed-directory';
import type { Account } from './account.entity';
import type { AccountRepository } from './account.repository';
import { AuthRevocations } from './auth-revocations';

describe('AccountDirectory: a wrong key costs what an unknown user ID costs (issue 20, item 5)', () => {
  const secrets = new Secrets({ secret: 's'.repeat(32) } as AppConfig);
  const KEY = 'a'.repeat(32);
  const WRONG = 'b'.repeat(32);
  let stored: Account;
  let queried: number[];
  let revocations: AuthRevocations;

  function directory(cacheTtlMs = 15_000): AccountDirectory {
    const accounts = {
      findById: (id: number) => {
        queried.push(id);
        return Promise.resolve(id === stored.id ? { ...stored } : null);
      },
    } as unknown as AccountRepository;
    const config = { auth: { cacheTtlMs }, queue: { prefix: 'unit' } } as AppConfig;
    revocations = new AuthRevocations(config, pino({ level: 'silent' }));
    return new AccountDirectory(accounts, secrets, config, revocations);
  }

  beforeEach(() => {
    stored = { id: 7, apiKeyHash: secrets.hash(KEY) } as Account;
    queried = [];
  });
  afterEach(() => jest.restoreAllMocks());

  it('asks the database on a wrong key for a cached account, as for an unknown user ID', async () => {
    const dir = directory();
    await expect(dir.authenticate(7, KEY)).resolves.toEqual(stored);
    queried = [];
    for (let i = 0; i < 3; i++) {
      await expect(dir.authenticate(7, WRONG)).resolves.toBeNull();
      await expect(dir.authenticate(99, WRONG)).resolves.toBeNull();
    }
    expect(queried).toEqual([7, 99, 7, 99, 7, 99]);
  });

  it('compares as many hashes, of the same shape, for an unknown user ID as for a wrong key', async () => {
    const dir = directory();
    await dir.authenticate(7, KEY);
    const matches = jest.spyOn(secrets, 'matches');
    await dir.authenticate(7, WRONG);
    const wrongKey = matches.mock.calls.splice(0);
    await dir.authenticate(99, WRONG);
    const unknownId = matches.mock.calls.splice(0);
    expect(wrongKey).toEqual([
      [WRONG, stored.apiKeyHash],
      [WRONG, stored.apiKeyHash],
    ]);
    expect(unknownId).toHaveLength(2);
    for (const [key, hash] of unknownId) {
      expect(key).toBe(WRONG);
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(hash).not.toBe(stored.apiKeyHash);
    }
  });

  it('answers a proven key from the cache, without a query or a hash', async () => {
    const dir = directory();
    await dir.authenticate(7, KEY);
    queried = [];
    const matches = jest.spyOn(secrets, 'matches');
    await expect(dir.authenticate(7, KEY)).resolves.toEqual(stored);
    expect(dir.provenAccount(7, KEY)).toEqual(stored);
    expect(dir.provenAccount(7, WRONG)).toBeUndefined();
    expect(dir.provenAccount(99, WRONG)).toBeUndefined();
    expect(queried).toEqual([]);
    expect(matches).not.toHaveBeenCalled();
  });

  it('takes a key rotated by another process at once; the old one stops working then', async () => {
    const dir = directory();
    await dir.authenticate(7, KEY);
    const rotated = 'c'.repeat(32);
    stored = { ...stored, apiKeyHash: secrets.hash(rotated) };
    await expect(dir.authenticate(7, rotated)).resolves.toEqual(stored);
    await expect(dir.authenticate(7, KEY)).resolves.toBeNull();
  });

  it('takes an account created by another process at once: unknown user IDs are not kept', async () => {
    const dir = directory();
    await expect(dir.authenticate(8, KEY)).resolves.toBeNull();
    stored = { ...stored, id: 8 };
    await expect(dir.authenticate(8, KEY)).resolves.toEqual(stored);
  });

  it('caches nothing with a TTL of 0', async () => {
    const dir = directory(0);
    await dir.authenticate(7, KEY);
    await dir.authenticate(7, KEY);
    await dir.authenticate(99, KEY);
    expect(queried).toEqual([7, 7, 99]);
  });

  it('forgets an account revoked by any process, and no other holder of the same id', async () => {
    const dir = directory();
    await dir.authenticate(7, KEY);
    revocations.forget({ kind: 'enterprise', id: 7 });
    expect(dir.provenAccount(7, KEY)).toEqual(stored);
    revocations.forget({ kind: 'account', id: 7 });
    expect(dir.provenAccount(7, KEY)).toBeUndefined();
    expect(dir.cachedAccount(7)).toBeUndefined();
  });

  it('trusts nothing it cached while the revocation feed is down; keeps afresh once it is back', async () => {
    const dir = directory();
    await dir.authenticate(7, KEY);
    revocations.feedDown();
    expect(dir.provenAccount(7, KEY)).toBeUndefined();
    queried = [];
    await expect(dir.authenticate(7, KEY)).resolves.toEqual(stored);
    await expect(dir.authenticate(7, KEY)).resolves.toEqual(stored);
    expect(queried).toEqual([7, 7]);
    revocations.feedUp();
    await dir.authenticate(7, KEY);
    expect(dir.provenAccount(7, KEY)).toEqual(stored);
    expect(queried).toEqual([7, 7, 7]);
  });
});
