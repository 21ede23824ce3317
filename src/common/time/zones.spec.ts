import { isValidTimezone } from './zones';

describe('isValidTimezone', () => {
  it.each(['America/New_York', 'UTC', 'Europe/Paris', 'Asia/Kolkata', 'america/new_york'])(
    'takes %s, the first time and again (kept)',
    (zone) => {
      expect(isValidTimezone(zone)).toBe(true);
      expect(isValidTimezone(zone)).toBe(true);
    },
  );

  it.each([
    ['an unknown name', 'Mars/Olympus_Mons'],
    ['an empty string', ''],
    ['an offset', '+05:00x'],
    ['a name over 64 characters', `America/${'x'.repeat(60)}`],
    ['a number', 5],
    ['null', null],
  ])('refuses %s, every time (nothing is kept of it)', (_, zone) => {
    expect(isValidTimezone(zone)).toBe(false);
    expect(isValidTimezone(zone)).toBe(false);
  });
});
