import { CODE_VERIFIER, provesChallenge, s256 } from './pkce';

describe('PKCE S256', () => {
  // RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('computes the RFC example', () => {
    expect(s256(verifier)).toBe(challenge);
    expect(provesChallenge(verifier, challenge)).toBe(true);
  });

  it('refuses another verifier or challenge', () => {
    expect(provesChallenge(`${verifier.slice(0, -1)}l`, challenge)).toBe(false);
    expect(provesChallenge(verifier, challenge.slice(1))).toBe(false);
    expect(provesChallenge(verifier, verifier)).toBe(false);
  });

  it.each([
    ['a'.repeat(43), true],
    ['a'.repeat(128), true],
    ['A-Z.a_z~09'.repeat(5), true],
    ['a'.repeat(42), false],
    ['a'.repeat(129), false],
    [`${'a'.repeat(42)}+`, false],
    [`${'a'.repeat(42)} `, false],
  ])('%s is a well-formed verifier: %s', (candidate, ok) => {
    expect(CODE_VERIFIER.test(candidate)).toBe(ok);
  });
});
