import { HOUR, MINUTE } from '../../common/time/durations';
import { freeStarts } from './slot-engine';
import {
  LONG_AGO,
  MONDAY,
  NY,
  around,
  at,
  calendar,
  expectDistinctAndIncreasing,
  hhmm,
  iso,
  local,
  rules,
  slotsOn,
  withOffset,
} from './slot-engine.fixtures';
import { localDateOf, startOfLocalDate } from './working-time';

/*
 * Hand-worked cases of the slot engine (freeStarts across DST changes); how they are written: slot-
 * engine.fixtures.ts.
 */

describe('freeStarts across DST changes', () => {
  describe('America/New_York', () => {
    it('spring-forward day 2026-03-08, 00:00-04:00: no 02:xx, 03:00 follows 01:30', () => {
      const starts = slotsOn(NY, '2026-03-08', [at('00:00', '04:00')]);
      expect(withOffset(NY, starts)).toEqual([
        '00:00-05:00',
        '00:30-05:00',
        '01:00-05:00',
        '01:30-05:00',
        '03:00-04:00',
        '03:30-04:00',
      ]);
      // 01:30 EST to 03:00 EDT is 30 real minutes: the grid runs on in real time.
      expect(starts[4] - starts[3]).toBe(30 * MINUTE);
    });

    it('spring-forward: a slot may run across the gap (60 real minutes from 01:30 end at 03:30)', () => {
      const starts = slotsOn(NY, '2026-03-08', [at('00:00', '04:00')], { duration: 60 });
      expect(withOffset(NY, starts)).toEqual([
        '00:00-05:00',
        '00:30-05:00',
        '01:00-05:00',
        '01:30-05:00',
        '03:00-04:00',
      ]);
    });

    it('spring-forward: hours starting inside the gap start at 03:00; hours wholly in it are none', () => {
      expect(withOffset(NY, slotsOn(NY, '2026-03-08', [at('02:00', '04:00')]))).toEqual([
        '03:00-04:00',
        '03:30-04:00',
      ]);
      // 02:15-03:15 is 03:00-03:15 EDT: room for a 15-minute slot only.
      expect(
        withOffset(NY, slotsOn(NY, '2026-03-08', [at('02:15', '03:15')], { duration: 15 })),
      ).toEqual(['03:00-04:00']);
      expect(slotsOn(NY, '2026-03-08', [at('02:15', '03:15')])).toEqual([]);
      expect(slotsOn(NY, '2026-03-08', [at('02:00', '03:00')], { duration: 5 })).toEqual([]);
      expect(slotsOn(NY, '2026-03-08', [at('02:10', '02:50')], { duration: 5 })).toEqual([]);
    });

    it('fall-back day 2026-11-01, 00:00-03:00: 01:00 and 01:30 twice, distinct, none skipped', () => {
      const starts = slotsOn(NY, '2026-11-01', [at('00:00', '03:00')]);
      expect(withOffset(NY, starts)).toEqual([
        '00:00-04:00',
        '00:30-04:00',
        '01:00-04:00',
        '01:30-04:00',
        '01:00-05:00',
        '01:30-05:00',
        '02:00-05:00',
        '02:30-05:00',
      ]);
      expectDistinctAndIncreasing(starts);
      // Four real hours of work, every 30 minutes.
      for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBe(30 * MINUTE);
    });

    it('fall-back: hours lying only in the repeated hour are worked twice, each on its own grid', () => {
      const starts = slotsOn(NY, '2026-11-01', [at('01:10', '01:50')], { slotInterval: 20 });
      expect(withOffset(NY, starts)).toEqual(['01:10-04:00', '01:10-05:00']);
    });

    it('weekly hours on the DST Sundays, as a regular weekday', () => {
      const cal = calendar(NY, { sunday: [at('01:00', '03:00')] });
      const march = freeStarts(
        cal,
        rules({ duration: 60, slotInterval: 60 }),
        around('2026-03-08'),
        LONG_AGO,
      );
      expect(iso(NY, march)).toEqual(['2026-03-08T01:00-05:00']);
      const november = freeStarts(
        cal,
        rules({ duration: 60, slotInterval: 60 }),
        around('2026-11-01'),
        LONG_AGO,
      );
      expect(iso(NY, november)).toEqual([
        '2026-11-01T01:00-04:00',
        '2026-11-01T01:00-05:00',
        '2026-11-01T02:00-05:00',
      ]);
    });

    it('maxDaysInAdvance counts 24 real hours across a DST change', () => {
      // From Saturday 09:00 EST, one day later is Sunday 10:00 EDT (the day has 23 hours).
      const cal = calendar(NY, { sunday: [at('09:00', '12:00')] });
      const starts = freeStarts(
        cal,
        rules({ maxDaysInAdvance: 1, slotInterval: 60 }),
        around('2026-03-08'),
        local(NY, '2026-03-07T09:00'),
      );
      expect(hhmm(NY, starts)).toEqual(['09:00', '10:00']);
    });
  });

  describe('Europe/London', () => {
    const LONDON = 'Europe/London';

    it('spring-forward 2026-03-29 (01:00 GMT -> 02:00 BST), 00:00-03:00 hourly', () => {
      const starts = slotsOn(LONDON, '2026-03-29', [at('00:00', '03:00')], {
        duration: 60,
        slotInterval: 60,
      });
      expect(withOffset(LONDON, starts)).toEqual(['00:00+00:00', '02:00+01:00']);
    });

    it('fall-back 2026-10-25 (02:00 BST -> 01:00 GMT), 00:00-03:00 hourly: 01:00 twice', () => {
      const starts = slotsOn(LONDON, '2026-10-25', [at('00:00', '03:00')], {
        duration: 60,
        slotInterval: 60,
      });
      expect(withOffset(LONDON, starts)).toEqual([
        '00:00+01:00',
        '01:00+01:00',
        '01:00+00:00',
        '02:00+00:00',
      ]);
    });
  });

  describe('Australia/Lord_Howe (30-minute DST)', () => {
    const LORD_HOWE = 'Australia/Lord_Howe';

    it('2026-10-04: 02:00 +10:30 jumps to 02:30 +11:00', () => {
      expect(
        withOffset(LORD_HOWE, slotsOn(LORD_HOWE, '2026-10-04', [at('01:00', '04:00')])),
      ).toEqual(['01:00+10:30', '01:30+10:30', '02:30+11:00', '03:00+11:00', '03:30+11:00']);
    });

    it('2026-10-04, 20-minute grid: steps in real time across the half-hour gap', () => {
      const starts = slotsOn(LORD_HOWE, '2026-10-04', [at('01:00', '03:20')], {
        duration: 20,
        slotInterval: 20,
      });
      expect(withOffset(LORD_HOWE, starts)).toEqual([
        '01:00+10:30',
        '01:20+10:30',
        '01:40+10:30',
        '02:30+11:00', // 01:40 + 20 real minutes is 02:00 +10:30, which is 02:30 +11:00
        '02:50+11:00', // 02:50 + 20 would end 03:10, but 03:10 + 20 would pass 03:20
      ]);
    });

    it('2026-04-05: 02:00 +11:00 falls back to 01:30 +10:30; 01:30-02:00 worked twice', () => {
      expect(
        withOffset(LORD_HOWE, slotsOn(LORD_HOWE, '2026-04-05', [at('01:00', '03:00')])),
      ).toEqual(['01:00+11:00', '01:30+11:00', '01:30+10:30', '02:00+10:30', '02:30+10:30']);
    });
  });

  describe('Asia/Kathmandu (+05:45, no DST)', () => {
    const KATHMANDU = 'Asia/Kathmandu';

    it('hours on the local clock, instants 5:45 before them in UTC', () => {
      const starts = slotsOn(KATHMANDU, MONDAY, [at('09:00', '12:00')], {
        duration: 60,
        slotInterval: 60,
      });
      expect(withOffset(KATHMANDU, starts)).toEqual(['09:00+05:45', '10:00+05:45', '11:00+05:45']);
      expect(starts[0]).toBe(Date.UTC(2026, 5, 15, 3, 15));
    });

    it('the whole day on a 45-minute grid: 32 slots, from local midnight', () => {
      const starts = slotsOn(KATHMANDU, MONDAY, [at('00:00', '24:00')], {
        duration: 45,
        slotInterval: 45,
      });
      expect(starts).toHaveLength(32);
      expect(starts[0]).toBe(Date.UTC(2026, 5, 14, 18, 15));
      expect(hhmm(KATHMANDU, starts.slice(-2))).toEqual(['22:30', '23:15']);
    });
  });

  describe('America/Santiago (DST changes at midnight)', () => {
    const SANTIAGO = 'America/Santiago';

    it('2026-09-06 has no midnight: the date starts at 01:00 -03:00', () => {
      expect(startOfLocalDate(SANTIAGO, '2026-09-06')).toBe(Date.UTC(2026, 8, 6, 4, 0));
      expect(withOffset(SANTIAGO, slotsOn(SANTIAGO, '2026-09-06', [at('00:00', '03:00')]))).toEqual(
        ['01:00-03:00', '01:30-03:00', '02:00-03:00', '02:30-03:00'],
      );
    });

    it('the day before runs to the gap: its 24:00 is 01:00 -03:00 of 2026-09-06', () => {
      const starts = slotsOn(SANTIAGO, '2026-09-05', [at('22:00', '24:00')], { duration: 60 });
      expect(iso(SANTIAGO, starts)).toEqual([
        '2026-09-05T22:00-04:00',
        '2026-09-05T22:30-04:00',
        '2026-09-05T23:00-04:00',
      ]);
    });

    it('hours wholly inside the missing midnight hour give nothing', () => {
      expect(slotsOn(SANTIAGO, '2026-09-06', [at('00:00', '01:00')], { duration: 5 })).toEqual([]);
    });

    it('fall-back 2026-04-05: 23:00-24:00 of 2026-04-04 is worked twice', () => {
      const starts = slotsOn(SANTIAGO, '2026-04-04', [at('22:00', '24:00')]);
      expect(withOffset(SANTIAGO, starts)).toEqual([
        '22:00-03:00',
        '22:30-03:00',
        '23:00-03:00',
        '23:30-03:00',
        '23:00-04:00',
        '23:30-04:00',
      ]);
      expectDistinctAndIncreasing(starts);
    });

    it('2026-04-05 itself starts at its one midnight, -04:00', () => {
      expect(
        iso(SANTIAGO, slotsOn(SANTIAGO, '2026-04-05', [at('00:00', '01:00')], { duration: 30 })),
      ).toEqual(['2026-04-05T00:00-04:00', '2026-04-05T00:30-04:00']);
    });

    it('a calendar open every day around the fall-back: each date its own, none twice', () => {
      const every = { saturday: [at('00:00', '24:00')], sunday: [at('00:00', '24:00')] };
      const starts = freeStarts(
        calendar(SANTIAGO, every),
        rules({ duration: 60, slotInterval: 60 }),
        around('2026-04-04'),
        LONG_AGO,
      );
      // Saturday has 25 real hours, Sunday 24.
      expect(starts.filter((s) => localDateOf(SANTIAGO, s) === '2026-04-04')).toHaveLength(25);
      expect(starts.filter((s) => localDateOf(SANTIAGO, s) === '2026-04-05')).toHaveLength(24);
      expectDistinctAndIncreasing(starts);
    });
  });
});

describe('America/Havana: a fall-back that repeats midnight (01:00 -04:00 -> 00:00 -05:00)', () => {
  // Found by the working-time property: luxon resolves the twice-happening midnight of 2026-11-01
  // to its second occurrence, so the date used to start an hour late and 00:00-00:59 -04:00 (local
  // date 2026-11-01) was worked by no date at all.
  const HAVANA = 'America/Havana';

  it('the date starts at its first midnight', () => {
    expect(startOfLocalDate(HAVANA, '2026-11-01')).toBe(Date.UTC(2026, 10, 1, 4));
    expect(localDateOf(HAVANA, Date.UTC(2026, 10, 1, 4) - 1)).toBe('2026-10-31');
    expect(localDateOf(HAVANA, Date.UTC(2026, 10, 1, 4))).toBe('2026-11-01');
  });

  it('00:00-02:00 is three real hours: 00:00 is offered twice', () => {
    const starts = slotsOn(HAVANA, '2026-11-01', [at('00:00', '02:00')], {
      duration: 60,
      slotInterval: 60,
    });
    expect(iso(HAVANA, starts)).toEqual([
      '2026-11-01T00:00-04:00',
      '2026-11-01T00:00-05:00',
      '2026-11-01T01:00-05:00',
    ]);
  });

  it('the day before still ends at the first midnight', () => {
    const starts = slotsOn(HAVANA, '2026-10-31', [at('22:00', '24:00')], {
      duration: 60,
      slotInterval: 60,
    });
    expect(iso(HAVANA, starts)).toEqual(['2026-10-31T22:00-04:00', '2026-10-31T23:00-04:00']);
    expect(starts[1] + HOUR).toBe(Date.UTC(2026, 10, 1, 4));
  });

  it('its spring-forward swallows midnight (2026-03-08 starts at 01:00 -04:00)', () => {
    expect(startOfLocalDate(HAVANA, '2026-03-08')).toBe(Date.UTC(2026, 2, 8, 5));
    expect(
      withOffset(
        HAVANA,
        slotsOn(HAVANA, '2026-03-08', [at('00:00', '02:00')], { slotInterval: 60 }),
      ),
    ).toEqual(['01:00-04:00']);
  });
});
