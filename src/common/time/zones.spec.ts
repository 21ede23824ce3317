import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { parseDatetime } from './datetimes';
import { instantOfLocal, isValidTimezone } from './zones';

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

describe('instantOfLocal', () => {
  const ZONES = [
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'America/Santiago',
    'Asia/Kolkata',
    'Pacific/Apia',
    'UTC',
  ];

  it('reads every local time as parseDatetime does: none in a gap, the earlier of two', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        // Local times from 1990 to 2040, to the minute.
        fc.integer({ min: Date.UTC(1990, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }),
        (zone, minutes) => {
          const local = minutes * 60_000;
          const parsed = parseDatetime(new Date(local).toISOString().slice(0, 19), zone);
          const expected = parsed.kind === 'moment' ? parsed.moment.toMillis() : null;
          expect(instantOfLocal(IANAZone.create(zone), local)).toBe(expected);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('knows the hours DST changes skip and repeat', () => {
    const ny = IANAZone.create('America/New_York');
    expect(instantOfLocal(ny, Date.UTC(2030, 2, 10, 2, 30))).toBeNull();
    expect(instantOfLocal(ny, Date.UTC(2030, 10, 3, 1, 30))).toBe(Date.UTC(2030, 10, 3, 5, 30));
    expect(instantOfLocal(ny, Date.UTC(2030, 10, 3, 9, 0))).toBe(Date.UTC(2030, 10, 3, 14, 0));
  });
});
