import { assertRedirectUri, isInsecureRedirectUri } from './redirect-uri';

describe('assertRedirectUri', () => {
  it.each([
    'https://partner.example/oauth/callback',
    'https://partner.example/callback?tenant=a&x=1',
    'http://127.0.0.1:8123/callback',
    'http://localhost/cb',
    'https://partner.example:8443/',
  ])('accepts %s as given', (uri) => {
    expect(assertRedirectUri(uri)).toBe(uri);
  });

  it.each([
    ['', 'must be 1 to 2048 characters long'],
    [`https://partner.example/${'a'.repeat(2030)}`, 'must be 1 to 2048 characters long'],
    ['/callback', 'must be an absolute URL'],
    ['partner.example/callback', 'must be an absolute URL'],
    ['ftp://partner.example/callback', 'must be an http or https URL'],
    ['javascript:alert(1)', 'must be an http or https URL'],
    ['com.partner.app:/callback', 'must be an http or https URL'],
    ['https://partner.example/callback#top', 'must not contain a fragment'],
    ['https://partner.example/callback#', 'must not contain a fragment'],
    ['https://user:pw@partner.example/callback', 'must not contain a user name or password'],
    ['https://partner.example/call back', 'must not contain spaces or control characters'],
    [' https://partner.example/callback', 'must not contain spaces or control characters'],
    ['https://partner.example/\ncallback', 'must not contain spaces or control characters'],
  ])('refuses %j: %s', (uri, why) => {
    expect(() => assertRedirectUri(uri)).toThrow(`The redirect URI "${uri}" ${why}.`);
  });

  it.each([
    ['http://partner.example/cb', true],
    ['https://partner.example/cb', false],
    ['http://127.0.0.1:9000/cb', false],
    ['http://localhost:9000/cb', false],
    ['http://[::1]:9000/cb', false],
  ])('%s crosses the network in clear: %s', (uri, insecure) => {
    expect(isInsecureRedirectUri(uri)).toBe(insecure);
  });
});
