import { DateTime } from 'luxon';
import { clockOf, dayOf, momentIn, monthOf, priceOf, weekdaysOf } from './formats';

describe('clockOf: a listed time’s wall clock, as luxon writes it', () => {
  it.each(['-0400', '+0000', '+0530', '-1000'])(
    'matches luxon’s h:mma for every 5 minutes of a day at %s',
    (offset) => {
      for (let minutes = 0; minutes < 24 * 60; minutes += 5) {
        const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
        const mm = String(minutes % 60).padStart(2, '0');
        const time = `2030-06-03T${hh}:${mm}:00${offset}`;
        const luxon = DateTime.fromISO(time, { setZone: true }).toFormat('h:mma').toLowerCase();
        expect([time, clockOf('en', time)]).toEqual([time, luxon]);
      }
    },
  );

  it('writes midnight and noon as 12', () => {
    expect(clockOf('en', '2030-06-03T00:05:00-0400')).toBe('12:05am');
    expect(clockOf('en', '2030-06-03T12:00:00-0400')).toBe('12:00pm');
    expect(clockOf('en', '2030-06-03T23:55:00-0400')).toBe('11:55pm');
  });
});

describe('dayOf: a date as luxon writes it', () => {
  it('matches luxon’s “cccc, LLLL d, yyyy” for every day of two years', () => {
    for (let day = 0; day < 731; day++) {
      const date = DateTime.fromISO('2030-01-01', { zone: 'UTC' }).plus({ days: day });
      const iso = date.toISODate()!;
      expect([iso, dayOf('en', iso)]).toEqual([iso, date.toFormat('cccc, LLLL d, yyyy')]);
    }
  });

  it.each(['2030-02-31', '2030-02-29', '2030-13-45', '2030-00-10'])(
    'writes %s, which no calendar has, as it is',
    (date) => {
      expect(dayOf('en', date)).toBe(date);
    },
  );
});

describe('momentIn: an instant in a zone, as luxon writes it', () => {
  it.each([
    'America/New_York',
    'Europe/London',
    'Asia/Kolkata',
    'Pacific/Chatham',
    'Australia/Lord_Howe',
    'UTC',
  ])('writes an instant in %s as luxon does, every 97 minutes of a year', (zone) => {
    const start = Date.UTC(2030, 0, 1);
    for (let at = start; at < start + 365 * 86_400_000; at += 97 * 60_000) {
      const moment = DateTime.fromMillis(at, { zone });
      const written = `${moment.toFormat('cccc, LLLL d, yyyy')} at ${moment.toFormat('h:mma').toLowerCase()} (${moment.toFormat('ZZZZ')})`;
      const api = moment.toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ");
      expect([api, momentIn('en', new Date(at), zone), momentIn('en', api, zone)]).toEqual([
        api,
        written,
        written,
      ]);
    }
  });

  it('writes 0:05 as 12:05am, noon as 12:00pm, with the zone’s name of the day', () => {
    expect(momentIn('en', new Date('2030-06-03T04:05:00Z'), 'America/New_York')).toBe(
      'Monday, June 3, 2030 at 12:05am (EDT)',
    );
    expect(momentIn('en', new Date('2030-01-07T17:00:00Z'), 'America/New_York')).toBe(
      'Monday, January 7, 2030 at 12:00pm (EST)',
    );
  });
});

describe('monthOf: a month as luxon writes it', () => {
  it('matches luxon’s “LLLL yyyy” for every month of 1900–2999', () => {
    for (let index = 1900 * 12; index < 3000 * 12; index++) {
      const month = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
      const first = DateTime.fromISO(`${month}-01`, { zone: 'UTC' });
      expect([month, monthOf('en', month)]).toEqual([month, first.toFormat('LLLL yyyy')]);
    }
  });
});

describe('priceOf: an amount in a currency', () => {
  it('writes each currency as Intl does, again and again; Free for nothing; a code Intl refuses as it is', () => {
    for (let i = 0; i < 2; i++) {
      expect(priceOf('en', '40.00', 'USD')).toBe('$40.00');
      expect(priceOf('en', 1234.5, 'EUR')).toBe('€1,234.50');
      expect(priceOf('en', '0.00', 'USD')).toBe('Free');
      expect(priceOf('en', '12.50', 'NOT-A-CODE')).toBe('12.50 NOT-A-CODE');
    }
  });
});

describe('in the client’s language (Intl in its locale)', () => {
  it('writes dates, months, weekdays, times, moments and prices as each language does', () => {
    const at = '2027-01-04T09:30:00+0100';
    const lines = (['en', 'es', 'fr', 'de'] as const).map((l) => [
      dayOf(l, '2027-01-04'),
      monthOf(l, '2027-01'),
      weekdaysOf(l)[1].short,
      clockOf(l, at),
      momentIn(l, at, 'Europe/Madrid'),
      priceOf(l, '40', 'EUR'),
      priceOf(l, 0, 'EUR'),
    ]);
    expect(lines).toEqual([
      [
        'Monday, January 4, 2027',
        'January 2027',
        'Mon',
        '9:30am',
        'Monday, January 4, 2027 at 9:30am (GMT+1)',
        '€40.00',
        'Free',
      ],
      [
        'lunes, 4 de enero de 2027',
        'enero de 2027',
        'lun',
        '9:30',
        'lunes, 4 de enero de 2027, 9:30 (CET)',
        '40,00\u00a0€',
        'Gratis',
      ],
      [
        'lundi 4 janvier 2027',
        'janvier 2027',
        'lun.',
        '09:30',
        'lundi 4 janvier 2027 à 09:30 (UTC+1)',
        '40,00\u00a0€',
        'Gratuit',
      ],
      [
        'Montag, 4. Januar 2027',
        'Januar 2027',
        'Mo',
        '09:30',
        'Montag, 4. Januar 2027 um 09:30 (MEZ)',
        '40,00\u00a0€',
        'Kostenlos',
      ],
    ]);
  });
});
