import fc from 'fast-check';
import {
  FIRST_YEAR,
  LAST_YEAR,
  isAnyYearDate,
  isCalendarDate,
  isCalendarMonth,
  isSupportedYear,
} from './calendar-dates';

describe('the supported years, 1900–2999', () => {
  it.each([
    [1899, false],
    [1900, true],
    [2026, true],
    [2999, true],
    [3000, false],
    [0, false],
    [9999, false],
    [275760, false],
  ])('%p → %p', (year, supported) => {
    expect(isSupportedYear(year)).toBe(supported);
  });

  it('are FIRST_YEAR to LAST_YEAR', () => {
    expect([FIRST_YEAR, LAST_YEAR]).toEqual([1900, 2999]);
  });
});

describe('isCalendarDate: a date as the service takes it', () => {
  it.each(['1900-01-01', '1900-02-28', '2000-02-29', '2026-03-03', '2999-12-31'])(
    'takes %s',
    (date) => {
      expect(isCalendarDate(date)).toBe(true);
    },
  );

  it.each([
    ['the day before the first', '1899-12-31'],
    ['the day after the last', '3000-01-01'],
    ['year 0000', '0000-01-01'],
    ['year 0001', '0001-01-01'],
    ['year 0099 (Date.UTC would read 1999)', '0099-01-01'],
    ['year 1000', '1000-01-01'],
    ['year 9999', '9999-12-31'],
    ['a six-digit year', '275760-09-13'],
    ['an expanded year', '+002026-03-03'],
    ['a day February lacks', '2026-02-30'],
    ['1900, no leap year', '1900-02-29'],
    ['month 13', '2026-13-01'],
    ['month 00', '2026-00-10'],
    ['day 00', '2026-01-00'],
    ['day 32', '2026-01-32'],
    ['no padding', '2026-3-3'],
    ['a datetime', '2026-03-03T10:00'],
    ['spaces', ' 2026-03-03'],
    ['empty', ''],
    ['a number', 20260303],
    ['null', null],
  ])('refuses %s (%p)', (_, value) => {
    expect(isCalendarDate(value)).toBe(false);
  });

  it('is exactly a real day of a supported year, for any text of the shape', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (y, m, d) => {
          const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          const real =
            m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(2000, m, 0)).getUTCDate();
          const leapDay = m === 2 && d === 29;
          const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
          expect(isCalendarDate(text)).toBe(y >= 1900 && y <= 2999 && real && (!leapDay || leap));
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('isAnyYearDate: a date the service works out itself', () => {
  it.each([
    ['1899-12-31', true],
    ['3000-01-01', true],
    ['1000-01-01', true],
    ['9999-12-31', true],
    ['0999-12-31', false],
    ['0000-01-01', false],
    ['2026-02-30', false],
    ['2026-02-29', false],
    ['2028-02-29', true],
    ['2026-06-31', false],
    ['2026-06-00', false],
    ['2026-00-10', false],
    ['2026-13-01', false],
  ])('%s → %p', (date, real) => {
    expect(isAnyYearDate(date)).toBe(real);
  });
});

describe('isCalendarMonth: a month as the service takes it', () => {
  it.each(['1900-01', '2026-06', '2999-12'])('takes %s', (month) => {
    expect(isCalendarMonth(month)).toBe(true);
  });

  it.each([
    '1899-12',
    '3000-01',
    '0000-01',
    '0001-01',
    '9999-12',
    '275760-09',
    '2026-13',
    '2026-00',
    '2026-6',
    '2026-06-01',
    '',
    undefined,
    202606,
  ])('refuses %p', (month) => {
    expect(isCalendarMonth(month)).toBe(false);
  });
});
