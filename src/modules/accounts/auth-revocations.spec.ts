import { revocationOf } from './auth-revocations';

describe('revocationOf: what a message on the revocation channel names', () => {
  it.each([
    ['{"kind":"account","id":7}', { kind: 'account', id: 7 }],
    ['{"kind":"enterprise","id":3}', { kind: 'enterprise', id: 3 }],
    ['{"kind":"token","id":"ab12"}', { kind: 'token', id: 'ab12' }],
    ['{"kind":"code","id":"c-1"}', { kind: 'code', id: 'c-1' }],
  ])('reads %s', (message, revocation) => {
    expect(revocationOf(message)).toEqual(revocation);
  });

  it.each([
    ['not JSON', 'account:7'],
    ['null', 'null'],
    ['a number', '7'],
    ['an unknown kind', '{"kind":"session","id":7}'],
    ['an account id that is a string', '{"kind":"account","id":"7"}'],
    ['an account id that is not an integer', '{"kind":"account","id":7.5}'],
    ['a token id that is a number', '{"kind":"token","id":7}'],
    ['no id', '{"kind":"enterprise"}'],
  ])('knows nothing of %s', (_, message) => {
    expect(revocationOf(message)).toBeUndefined();
  });
});
