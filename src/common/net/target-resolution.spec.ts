import type { LookupAddress } from 'node:dns';
import { checkOutboundTarget } from './outbound-target';
import { TargetRefusedError, TargetUnresolvedError } from './outbound-errors';
import {
  type LookupAll,
  checkTargetAddresses,
  resolveTarget,
  systemLookup,
} from './target-resolution';

const STRICT = { extraPorts: [], allowPrivateTargets: false };
const OPEN = { extraPorts: [], allowPrivateTargets: true };

/** A resolver that answers `addresses` (or fails with `code`) and counts what it was asked. */
function resolver(answer: string[] | { code: string } | 'never') {
  const asked: string[] = [];
  const lookup: LookupAll = (host) => {
    asked.push(host);
    if (answer === 'never') return new Promise<never>(() => undefined);
    if (!Array.isArray(answer))
      return Promise.reject(Object.assign(new Error(answer.code), answer));
    return Promise.resolve(
      answer.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return { lookup, asked };
}

describe('checkTargetAddresses: a source URL at registration, its name resolved', () => {
  const url = (target: string) => new URL(target);

  it.each([
    [['127.0.0.1']],
    [['10.0.0.7']],
    [['93.184.216.34', '192.168.1.5']],
    [['::1']],
    [['fd00::1']],
    [['::ffff:169.254.169.254']],
  ])('refuses a name that resolves to %j, in the words of a literal address', async (addresses) => {
    const { lookup, asked } = resolver(addresses);
    await expect(
      checkTargetAddresses(url('https://calendar.corp.example/dav/'), STRICT, lookup),
    ).resolves.toEqual({
      ok: false,
      reason: 'must not point to a private, loopback or reserved address (calendar.corp.example).',
    });
    expect(asked).toEqual(['calendar.corp.example']);
  });

  it('words it as checkOutboundTarget words a literal private address', async () => {
    const literal = checkOutboundTarget('http://10.0.0.7/x.ics', STRICT);
    const named = await checkTargetAddresses(
      url('http://intranet.example/x.ics'),
      STRICT,
      resolver(['10.0.0.7']).lookup,
    );
    const words = 'must not point to a private, loopback or reserved address';
    expect([literal, named]).toEqual([
      { ok: false, reason: `${words} (10.0.0.7).` },
      { ok: false, reason: `${words} (intranet.example).` },
    ]);
  });

  it('takes a name whose addresses are all public', async () => {
    const target = url('https://calendar.example.com/feed.ics');
    await expect(
      checkTargetAddresses(target, STRICT, resolver(['93.184.216.34', '2606:4700::1']).lookup),
    ).resolves.toEqual({ ok: true, url: target });
  });

  it('takes a name that does not resolve, or not in time: the sync checks it again', async () => {
    const target = url('https://calendar.example.com/feed.ics');
    await expect(
      checkTargetAddresses(target, STRICT, resolver({ code: 'ENOTFOUND' }).lookup),
    ).resolves.toEqual({ ok: true, url: target });
    await expect(checkTargetAddresses(target, STRICT, resolver([]).lookup)).resolves.toEqual({
      ok: true,
      url: target,
    });
    await expect(
      checkTargetAddresses(target, STRICT, resolver('never').lookup, 50),
    ).resolves.toEqual({ ok: true, url: target });
  });

  it('resolves nothing when private targets are allowed, or for an IP literal', async () => {
    const { lookup, asked } = resolver(['127.0.0.1']);
    await checkTargetAddresses(url('https://calendar.corp.example/'), OPEN, lookup);
    await checkTargetAddresses(url('https://93.184.216.34/'), STRICT, lookup);
    await checkTargetAddresses(url('https://[2606:4700::1]/'), STRICT, lookup);
    expect(asked).toEqual([]);
  });

  it('uses the system resolver by default: a name of /etc/hosts for the loopback is refused', async () => {
    // `localhost` is refused by its name alone; `vm` is this machine's own name, in /etc/hosts.
    const name = 'vm';
    await expect(systemLookup(name, { all: true })).resolves.toContainEqual({
      address: '127.0.0.1',
      family: 4,
    });
    await expect(checkTargetAddresses(url(`https://${name}/dav/`), STRICT)).resolves.toEqual({
      ok: false,
      reason: `must not point to a private, loopback or reserved address (${name}).`,
    });
  });
});

describe('resolveTarget: the addresses a sync may connect to', () => {
  const signal = () => AbortSignal.timeout(1000);

  it('answers every address when all are allowed', async () => {
    await expect(
      resolveTarget('calendar.example.com', STRICT, signal(), resolver(['93.184.216.34']).lookup),
    ).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(
      resolveTarget('calendar.corp.example', OPEN, signal(), resolver(['10.0.0.7']).lookup),
    ).resolves.toEqual([{ address: '10.0.0.7', family: 4 }]);
  });

  it('refuses a non-public one, and says when the name does not resolve', async () => {
    await expect(
      resolveTarget('a.example', STRICT, signal(), resolver(['93.184.216.34', '10.0.0.7']).lookup),
    ).rejects.toThrow(new TargetRefusedError('address 10.0.0.7 is not public'));
    await expect(
      resolveTarget('a.example', STRICT, signal(), resolver({ code: 'EAI_AGAIN' }).lookup),
    ).rejects.toThrow(new TargetUnresolvedError('cannot resolve a.example: EAI_AGAIN'));
    await expect(resolveTarget('a.example', STRICT, signal(), resolver([]).lookup)).rejects.toThrow(
      new TargetUnresolvedError('cannot resolve a.example'),
    );
  });
});
