import type { BookingInput } from './book-appointment.requests';
import { type BookingTime, checkBookingTime, fieldInputs, startOf } from './booking-checks';
import { NY, error, refusal, valid } from './booking-checks.fixtures';

/* The booking checks of a datetime, its start, and the form answers as given, without a database. */

describe('checkBookingTime', () => {
  const time = (changes: Partial<BookingInput>, mode = { admin: false, duration: 45 }) =>
    checkBookingTime({ ...valid, ...changes }, { ...mode, zone: NY });

  it('reads the datetime in the zone given (the calendar’s, or the account’s)', () => {
    expect(time({})).toEqual({
      timezone: undefined,
      datetimeText: '2030-06-03T10:00',
      start: Date.parse('2030-06-03T14:00:00Z'),
    });
    // An offset wins over the zone.
    expect(time({ datetime: '2030-06-03T10:00:00+0200' }).start).toBe(
      Date.parse('2030-06-03T08:00:00Z'),
    );
  });

  it('gives the client’s zone as IANA spells it', () => {
    expect(time({ timezone: 'europe/paris' }).timezone).toBe('Europe/Paris');
  });

  it('refuses an admin’s booking longer than a day with its addons (invalid_addon_ids)', () => {
    expect(refusal(() => time({}, { admin: true, duration: 1441 }))).toEqual(
      error('invalid_addon_ids', 'An appointment lasts at most 1440 minutes, addons included.'),
    );
    expect(() => time({}, { admin: true, duration: 1440 })).not.toThrow();
    // A client is told the time is not available, later (availability offers no such time).
    expect(() => time({}, { admin: false, duration: 1441 })).not.toThrow();
  });

  it.each(['Mars/Olympus', 'EST5EDT6', ''])('invalid_timezone for %p', (timezone) => {
    expect(refusal(() => time({ timezone }))).toEqual(
      error('invalid_timezone', `Invalid timezone "${timezone}".`),
    );
  });

  it.each([
    ['tomorrow', 'tomorrow'],
    ['2030-06-03', '2030-06-03'],
    ['2030-02-30T10:00', '2030-02-30T10:00'],
    ['2030-06-03T10:00:00+2500', '2030-06-03T10:00:00+2500'],
    [12345, '12345'],
    [{ at: 'noon' }, '{"at":"noon"}'],
  ])('invalid_datetime for %p', (datetime, shown) => {
    expect(refusal(() => time({ datetime }))).toEqual(
      error('invalid_datetime', `The datetime "${shown}" is invalid.`),
    );
  });

  it('a local time a DST change skips: not_available for a client (later), invalid for an admin', () => {
    const skipped = time({ datetime: '2030-03-10T02:30' });
    expect(skipped).toEqual({ timezone: undefined, datetimeText: '2030-03-10T02:30', start: null });
    expect(refusal(() => startOf(skipped))).toEqual(
      error('not_available', 'The time "2030-03-10T02:30" is not an available time slot.'),
    );
    expect(
      refusal(() => time({ datetime: '2030-03-10T02:30' }, { admin: true, duration: 45 })),
    ).toEqual(error('invalid_datetime', 'The datetime "2030-03-10T02:30" is invalid.'));
  });

  it('precedence: the length, then the zone, then the datetime', () => {
    const wrong = { timezone: 'Nowhere/Land', datetime: 'soon' };
    expect(refusal(() => time(wrong, { admin: true, duration: 2000 })).error).toBe(
      'invalid_addon_ids',
    );
    expect(refusal(() => time(wrong)).error).toBe('invalid_timezone');
    expect(refusal(() => time({ datetime: 'soon' })).error).toBe('invalid_datetime');
  });
});

describe('startOf', () => {
  it('is the start of a time that happens', () => {
    const happens: BookingTime = { timezone: undefined, datetimeText: 'x', start: 42 };
    expect(startOf(happens)).toBe(42);
  });
});

describe('fieldInputs', () => {
  it('reads `{id, value}` objects as sent, anything else as an id without a value', () => {
    expect(fieldInputs([{ id: 1, value: 'a' }, 5, null])).toEqual([
      { id: 1, value: 'a' },
      { id: 5, value: undefined },
      { id: null, value: undefined },
    ]);
  });
});
