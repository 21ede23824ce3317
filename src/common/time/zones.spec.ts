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
  const DAY = 86_400_000;
  const ZONES = [
    'America/New_York',
    'Europe/London',
    'Australia/Lord_Howe',
    'America/Santiago',
    'Asia/Kolkata',
    'Pacific/Apia',
    'UTC',
  ];

  /**
   * The instants a zone shows `local` at, found by brute force: every offset the zone has within
   * two days of it (read every 15 minutes), each tried; the earliest that reads back as `local`.
   */
  function byBruteForce(zone: IANAZone, local: number): number | null {
    const offsets = new Set<number>();
    for (let t = local - 2 * DAY; t <= local + 2 * DAY; t += 15 * 60_000)
      offsets.add(zone.offset(t));
    const instants = [...offsets]
      .map((offset) => local - offset * 60_000)
      .filter((instant) => instant + zone.offset(instant) * 60_000 === local);
    return instants.length > 0 ? Math.min(...instants) : null;
  }

  it('finds the instant of every local time, none in a gap and the earlier of two (brute force)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        // Local times from 1990 to 2040, to the minute.
        fc.integer({ min: Date.UTC(1990, 0, 1) / 60_000, max: Date.UTC(2040, 0, 1) / 60_000 }),
        (zone, minutes) => {
          const tz = IANAZone.create(zone);
          const local = minutes * 60_000;
          expect(instantOfLocal(tz, local)).toBe(byBruteForce(tz, local));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('finds them in the days Apia changed its offset by an hour and by a day (brute force)', () => {
    const tz = IANAZone.create('Pacific/Apia');
    for (const [from, until] of [
      [Date.UTC(2011, 2, 31), Date.UTC(2011, 3, 4)],
      [Date.UTC(2011, 11, 28), Date.UTC(2012, 0, 2)],
    ])
      for (let local = from; local < until; local += 30 * 60_000)
        expect(instantOfLocal(tz, local)).toBe(byBruteForce(tz, local));
  });

  it('reads the local times of DST changes as parseDatetime does where luxon is exact', () => {
    for (const zone of ['America/New_York', 'Europe/London', 'Australia/Lord_Howe']) {
      const tz = IANAZone.create(zone);
      for (let day = 0; day < 366; day++)
        for (const hour of [0, 1, 2, 3]) {
          const local = Date.UTC(2030, 0, 1 + day, hour, 30);
          const parsed = parseDatetime(new Date(local).toISOString().slice(0, 19), zone);
          const expected = parsed.kind === 'moment' ? parsed.moment.toMillis() : null;
          expect(instantOfLocal(tz, local)).toBe(expected);
        }
    }
  });

  it('reads a local time after a fall-back hour that luxon misreads (Apia, 2011-04-02 04:00)', () => {
    expect(instantOfLocal(IANAZone.create('Pacific/Apia'), Date.UTC(2011, 3, 2, 4, 0))).toBe(
      Date.UTC(2011, 3, 2, 15, 0),
    );
  });

  it('knows the hours DST changes skip and repeat', () => {
    const ny = IANAZone.create('America/New_York');
    expect(instantOfLocal(ny, Date.UTC(2030, 2, 10, 2, 30))).toBeNull();
    expect(instantOfLocal(ny, Date.UTC(2030, 10, 3, 1, 30))).toBe(Date.UTC(2030, 10, 3, 5, 30));
    expect(instantOfLocal(ny, Date.UTC(2030, 10, 3, 9, 0))).toBe(Date.UTC(2030, 10, 3, 14, 0));
  });
});
