import {
  claimedAppointmentId,
  confirmationPage,
  confirmationToken,
  tokenMatches,
} from './confirmation-token';

const SECRET = 'a-test-secret-a-test-secret-0123456789';

describe('confirmation tokens', () => {
  const token = confirmationToken(SECRET, 7, 42);

  it('is the id and 128 bits of MAC, the same every time', () => {
    expect(token).toMatch(/^42-[0-9a-f]{32}$/);
    expect(confirmationToken(SECRET, 7, 42)).toBe(token);
    expect(confirmationPage('https://s.example', SECRET, 7, 42)).toBe(
      `https://s.example/confirmation/${token}`,
    );
  });

  it('opens exactly its appointment of its account', () => {
    expect(tokenMatches(SECRET, token, { id: 42, accountId: 7 })).toBe(true);
    expect(tokenMatches(SECRET, token, { id: 42, accountId: 8 })).toBe(false);
    expect(tokenMatches(SECRET, token, { id: 43, accountId: 7 })).toBe(false);
    expect(tokenMatches(`${SECRET}x`, token, { id: 42, accountId: 7 })).toBe(false);
    const mac = token.split('-')[1];
    expect(tokenMatches(SECRET, `43-${mac}`, { id: 43, accountId: 7 })).toBe(false);
  });

  it.each([
    '',
    '42',
    '42-',
    `0-${'a'.repeat(32)}`,
    `42-${'A'.repeat(32)}`,
    `42-${'a'.repeat(31)}`,
    `42-${'a'.repeat(33)}`,
    `x-${'a'.repeat(32)}`,
  ])('refuses %p', (bad) => {
    expect(claimedAppointmentId(bad)).toBeUndefined();
    expect(tokenMatches(SECRET, bad, { id: 42, accountId: 7 })).toBe(false);
  });
});
