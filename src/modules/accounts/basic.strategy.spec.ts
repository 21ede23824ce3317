import type { AccountDirectory } from './keyed-directory';
import type { Account } from './account.entity';
import { BasicStrategy } from './basic.strategy';
import { ProvenCredentials } from './proven-credentials';

/** A directory that knows account 42 by the key `k3y`, and records what it was asked. */
const account = { id: 42 } as Account;
const asked: [number, string][] = [];
const directory = {
  provenAccount: (id: number, key: string) => {
    asked.push([id, key]);
    return id === 42 && key === 'k3y' ? account : undefined;
  },
  authenticate: (id: number, key: string) => {
    asked.push([id, key]);
    return Promise.resolve(id === 42 && key === 'k3y' ? account : null);
  },
} as unknown as AccountDirectory;
const basic = (text: string, scheme = 'Basic') =>
  `${scheme} ${Buffer.from(text).toString('base64')}`;

describe('BasicStrategy.proven (the guard’s fast path)', () => {
  const registry = new ProvenCredentials();
  const strategy = new BasicStrategy(directory, registry);

  beforeEach(() => (asked.length = 0));

  it('registers itself with the guard’s registry', () => {
    expect(registry.principalFor(basic('42:k3y'))).toEqual({
      accountId: 42,
      account,
      scheme: 'basic',
    });
  });

  it.each([
    ['Basic', '42:k3y'],
    ['basic', '42:k3y'],
    ['BASIC', '42:k3y'],
  ])('asks the directory for the canonical shape (%s)', (scheme, text) => {
    expect(strategy.proven(basic(text, scheme))?.account).toBe(account);
    expect(asked).toEqual([[42, 'k3y']]);
  });

  it('reads the key as all that follows the first colon (RFC 7617)', () => {
    expect(strategy.proven(basic('42:k3y:x'))).toBeUndefined();
    expect(strategy.proven(basic('42:k3y:'))).toBeUndefined();
    expect(asked).toEqual([
      [42, 'k3y:x'],
      [42, 'k3y:'],
    ]);
  });

  it.each([
    ['no colon', basic('42k3y')],
    ['a user ID that is not one', basic('042:k3y')],
    ['a name for a user ID', basic('ada:k3y')],
    ['two spaces', `Basic  ${Buffer.from('42:k3y').toString('base64')}`],
    ['characters outside base64', 'Basic NDI6a3l5!'],
    ['text after the credentials', `${basic('42:k3y')} x`],
    ['another scheme', `Bearer ${'a'.repeat(64)}`],
    ['nothing', ''],
  ])('leaves %s to passport without asking', (_, header) => {
    expect(strategy.proven(header)).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('answers nothing for a key the directory has not proven', () => {
    expect(strategy.proven(basic('42:other'))).toBeUndefined();
    expect(asked).toEqual([[42, 'other']]);
  });
});

describe('BasicStrategy.validate (passport’s path)', () => {
  const strategy = new BasicStrategy(directory, new ProvenCredentials());
  const request = (text: string) => ({ headers: { authorization: basic(text) } }) as never;

  beforeEach(() => (asked.length = 0));

  it('takes the user ID and key', async () => {
    await expect(strategy.validate(request('42:k3y'))).resolves.toEqual({
      accountId: 42,
      account,
      scheme: 'basic',
    });
  });

  it.each(['42:k3y:x', '42:k3y:', '42:k3:y'])(
    'checks all that follows the first colon as the key (RFC 7617): %s',
    async (text) => {
      await expect(strategy.validate(request(text))).resolves.toBe(false);
      expect(asked).toEqual([[42, text.slice(3)]]);
    },
  );
});
