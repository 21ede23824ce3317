import {
  MAX_TARGET_LENGTH,
  type OutboundTargetPolicy,
  checkOutboundTarget,
} from './outbound-target';

const STRICT: OutboundTargetPolicy = { extraPorts: [], allowPrivateTargets: false };
const EXTRA_PORTS: OutboundTargetPolicy = { extraPorts: [8443, 9000], allowPrivateTargets: false };
const OPEN: OutboundTargetPolicy = { extraPorts: 'any', allowPrivateTargets: true };

const PRIVATE = (host: string) =>
  `must not point to a private, loopback or reserved address (${host}).`;

describe('checkOutboundTarget', () => {
  it.each([
    'https://hooks.example.com/acuity',
    'http://hooks.example.com/acuity?token=abc#frag',
    'https://hooks.example.com:443/x',
    'http://hooks.example.com:80/x',
    // The port is what counts, whatever the scheme.
    'http://hooks.example.com:443/x',
    'https://hooks.example.com:80/x',
    'HTTPS://Hooks.Example.COM/X',
    'https://8.8.8.8/hook',
    'https://[2606:4700:4700::1111]/hook',
    'https://bücher.example/hook',
    // Not resolved at registration: the delivery side checks the address it connects to.
    'https://intranet/hook',
    'https://localhost.example.com/hook',
    `https://example.com/${'a'.repeat(MAX_TARGET_LENGTH - 'https://example.com/'.length)}`,
  ])('accepts %s under the strict policy', (target) => {
    expect(checkOutboundTarget(target, STRICT)).toEqual({ ok: true, url: new URL(target) });
  });

  it.each([
    ['', 'must be an absolute URL.'],
    ['hooks.example.com/acuity', 'must be an absolute URL.'],
    ['/relative/path', 'must be an absolute URL.'],
    ['http://', 'must be an absolute URL.'],
    ['http:hooks.example.com', 'must be an absolute URL.'],
    ['http:/hooks.example.com', 'must be an absolute URL.'],
    ['http:\\\\hooks.example.com', 'must be an absolute URL.'],
    ['https://exa mple.com/', 'must not contain spaces or control characters.'],
    [' https://example.com/', 'must not contain spaces or control characters.'],
    ['https://exam\nple.com/', 'must not contain spaces or control characters.'],
    ['https://example.com/\t', 'must not contain spaces or control characters.'],
    ['https://example.com/a\u202eb', 'must not contain spaces or control characters.'],
    ['https://example.com/\u0085', 'must not contain spaces or control characters.'],
    ['https://example.com/\u2066x', 'must not contain spaces or control characters.'],
    ['ftp://example.com/', 'must be an http or https URL.'],
    ['ws://example.com/', 'must be an http or https URL.'],
    ['javascript:alert(1)', 'must be an http or https URL.'],
    ['mailto:owner@example.com', 'must be an http or https URL.'],
    ['https://user:secret@example.com/', 'must not contain a username or password.'],
    ['https://user@example.com/', 'must not contain a username or password.'],
    ['https://:@example.com/', 'must not contain a username or password.'],
    ['https://example.com:8443/', 'must use port 443 or 80, not 8443.'],
    ['http://example.com:8080/', 'must use port 443 or 80, not 8080.'],
    ['https://example.com:0/', 'must use port 443 or 80, not 0.'],
    ['https://example.com:65535/', 'must use port 443 or 80, not 65535.'],
    ['http://127.0.0.1/', PRIVATE('127.0.0.1')],
    ['http://10.1.2.3/', PRIVATE('10.1.2.3')],
    ['http://172.16.0.1/', PRIVATE('172.16.0.1')],
    ['http://192.168.1.10/', PRIVATE('192.168.1.10')],
    ['http://169.254.169.254/latest/meta-data', PRIVATE('169.254.169.254')],
    ['http://100.64.0.1/', PRIVATE('100.64.0.1')],
    ['http://0.0.0.0/', PRIVATE('0.0.0.0')],
    ['http://224.0.0.1/', PRIVATE('224.0.0.1')],
    // The parser normalises other spellings of an IPv4 address before the check.
    ['http://0x7f.1/', PRIVATE('127.0.0.1')],
    ['http://2130706433/', PRIVATE('127.0.0.1')],
    ['http://127.1/', PRIVATE('127.0.0.1')],
    ['http://127.0.0.1./', PRIVATE('127.0.0.1')],
    ['http://[::1]/', PRIVATE('[::1]')],
    ['http://[::]/', PRIVATE('[::]')],
    ['http://[fd00::1]/', PRIVATE('[fd00::1]')],
    ['http://[fe80::1]/', PRIVATE('[fe80::1]')],
    ['http://[::ffff:127.0.0.1]/', PRIVATE('[::ffff:7f00:1]')],
    ['http://[::ffff:10.0.0.1]/', PRIVATE('[::ffff:a00:1]')],
    // IPv4-compatible and 6to4 forms of loopback (issue 20, item 7).
    ['http://[::127.0.0.1]/', PRIVATE('[::7f00:1]')],
    ['http://[2002:7f00:1::]/', PRIVATE('[2002:7f00:1::]')],
    ['http://localhost/', PRIVATE('localhost')],
    ['http://LocalHost/', PRIVATE('localhost')],
    ['http://localhost./', PRIVATE('localhost.')],
    ['http://api.localhost/', PRIVATE('api.localhost')],
    [
      `https://example.com/${'a'.repeat(MAX_TARGET_LENGTH + 1 - 'https://example.com/'.length)}`,
      'must be at most 2048 characters long.',
    ],
  ])('refuses %j under the strict policy: %s', (target, reason) => {
    expect(checkOutboundTarget(target, STRICT)).toEqual({ ok: false, reason });
  });

  it.each([
    ['https://example.com:8443/', true],
    ['http://example.com:9000/', true],
    ['https://example.com/', true],
    ['http://example.com/', true],
    ['https://example.com:8080/', 'must use port 443, 80, 8443 or 9000, not 8080.'],
  ])('allows the extra ports of the configuration: %s', (target, outcome) => {
    expect(checkOutboundTarget(target, EXTRA_PORTS)).toEqual(
      outcome === true ? { ok: true, url: new URL(target) } : { ok: false, reason: outcome },
    );
  });

  it.each([
    'http://127.0.0.1:39123/hook',
    'http://localhost:3000/',
    'http://[::1]:8080/',
    'https://10.0.0.5:1/',
  ])('accepts %s when any port and private targets are allowed', (target) => {
    expect(checkOutboundTarget(target, OPEN)).toEqual({ ok: true, url: new URL(target) });
  });

  it('still refuses what is not an http(s) URL when everything else is allowed', () => {
    expect(checkOutboundTarget('ftp://127.0.0.1/', OPEN)).toEqual({
      ok: false,
      reason: 'must be an http or https URL.',
    });
    expect(checkOutboundTarget('http://user:pw@127.0.0.1/', OPEN)).toEqual({
      ok: false,
      reason: 'must not contain a username or password.',
    });
  });

  it('checks the ports and the address apart', () => {
    expect(
      checkOutboundTarget('http://127.0.0.1:8080/', {
        extraPorts: 'any',
        allowPrivateTargets: false,
      }),
    ).toEqual({ ok: false, reason: PRIVATE('127.0.0.1') });
    expect(
      checkOutboundTarget('http://127.0.0.1:8080/', { extraPorts: [], allowPrivateTargets: true }),
    ).toEqual({ ok: false, reason: 'must use port 443 or 80, not 8080.' });
  });
});
