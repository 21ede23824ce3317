import { InvalidAttributeError } from '../../common/errors/domain-error';
import {
  type DateOverrides,
  type WeeklyHours,
  parseDateOverrides,
  parseWeeklyHours,
  workingIntervalsOn,
} from './working-hours';

const at = (start: string, end: string) => ({ start, end });

/** What a refusal looks like on the wire: the code and the exact message. */
function refusal(parse: () => unknown): { code: string; message: string } | undefined {
  try {
    parse();
  } catch (error) {
    if (error instanceof InvalidAttributeError) {
      return { code: error.code, message: error.message };
    }
    throw error;
  }
  return undefined;
}

describe('parseWeeklyHours', () => {
  it.each<[string, unknown, WeeklyHours]>([
    ['no days (closed all week)', {}, {}],
    ['one interval', { monday: [at('09:00', '17:00')] }, { monday: [at('09:00', '17:00')] }],
    ['a closed day given as []', { sunday: [] }, { sunday: [] }],
    [
      'days put in week order',
      { sunday: [at('10:00', '12:00')], monday: [at('09:00', '17:00')] },
      { monday: [at('09:00', '17:00')], sunday: [at('10:00', '12:00')] },
    ],
    [
      'intervals sorted by start',
      { friday: [at('13:00', '17:00'), at('09:00', '12:00')] },
      { friday: [at('09:00', '12:00'), at('13:00', '17:00')] },
    ],
    [
      'touching intervals',
      { tuesday: [at('12:00', '13:00'), at('09:00', '12:00')] },
      { tuesday: [at('09:00', '12:00'), at('12:00', '13:00')] },
    ],
    [
      '24:00 as the end',
      { saturday: [at('18:00', '24:00')] },
      { saturday: [at('18:00', '24:00')] },
    ],
    ['the whole day', { saturday: [at('00:00', '24:00')] }, { saturday: [at('00:00', '24:00')] }],
    ['23:59 as the end', { monday: [at('00:00', '23:59')] }, { monday: [at('00:00', '23:59')] }],
    [
      'other keys of an interval dropped',
      { monday: [{ start: '09:00', end: '10:00', note: 'x' }] },
      { monday: [at('09:00', '10:00')] },
    ],
    [
      'twelve intervals',
      { monday: Array.from({ length: 12 }, (_, h) => at(`${10 + h}:00`, `${10 + h}:30`)) },
      { monday: Array.from({ length: 12 }, (_, h) => at(`${10 + h}:00`, `${10 + h}:30`)) },
    ],
  ])('accepts %s', (_, value, expected) => {
    const parsed = parseWeeklyHours(value);
    expect(parsed).toEqual(expected);
    expect(Object.keys(parsed)).toEqual(Object.keys(expected));
  });

  const problem = (text: string) => ({
    code: 'invalid_hours',
    message: `Invalid "hours" attribute value: ${text}.`,
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'expected an object of day names'],
    ['an array', [], 'expected an object of day names'],
    ['a string', 'monday 9-5', 'expected an object of day names'],
    ['an unknown day', { funday: [] }, 'unknown day "funday"'],
    ['a capitalized day', { Monday: [] }, 'unknown day "Monday"'],
    [
      'a day that is not an array',
      { monday: at('09:00', '17:00') },
      'monday must be an array of intervals',
    ],
    ['a day that is null', { monday: null }, 'monday must be an array of intervals'],
    [
      'more than 12 intervals',
      { monday: Array.from({ length: 13 }, (_, h) => at(`${10 + h}:00`, `${10 + h}:30`)) },
      'monday has more than 12 intervals',
    ],
    [
      'an interval that is not an object',
      { monday: ['09:00-17:00'] },
      'monday interval 1 must be an object with "start" and "end"',
    ],
    ['a missing start', { monday: [{ end: '17:00' }] }, 'monday interval 1 has no "start"'],
    ['a missing end', { monday: [{ start: '09:00' }] }, 'monday interval 1 has no "end"'],
    [
      'a one-digit hour',
      { monday: [at('9:00', '17:00')] },
      'monday interval 1 start "9:00" is not a time (HH:MM, 00:00 to 23:59)',
    ],
    [
      '24:00 as a start',
      { monday: [at('24:00', '24:00')] },
      'monday interval 1 start "24:00" is not a time (HH:MM, 00:00 to 23:59)',
    ],
    [
      '24:01 as an end',
      { monday: [at('09:00', '24:01')] },
      'monday interval 1 end "24:01" is not a time (HH:MM, 00:00 to 24:00)',
    ],
    [
      'minute 60',
      { monday: [at('09:00', '12:60')] },
      'monday interval 1 end "12:60" is not a time (HH:MM, 00:00 to 24:00)',
    ],
    [
      'a time with seconds',
      { monday: [at('09:00:00', '12:00')] },
      'monday interval 1 start "09:00:00" is not a time (HH:MM, 00:00 to 23:59)',
    ],
    [
      'a number as a time',
      { monday: [at('09:00', '17:00'), { start: 900, end: '10:00' }] },
      'monday interval 2 start 900 is not a time (HH:MM, 00:00 to 23:59)',
    ],
    [
      'an end before its start',
      { monday: [at('13:00', '12:00')] },
      'monday 13:00-12:00 ends before it starts',
    ],
    [
      'an empty interval',
      { wednesday: [at('12:00', '12:00')] },
      'wednesday 12:00-12:00 ends when it starts',
    ],
    [
      'overlapping intervals (given in any order)',
      { thursday: [at('11:00', '13:00'), at('09:00', '12:00')] },
      'thursday 09:00-12:00 overlaps 11:00-13:00',
    ],
    [
      'an interval inside another',
      { thursday: [at('09:00', '17:00'), at('10:00', '11:00')] },
      'thursday 09:00-17:00 overlaps 10:00-11:00',
    ],
    [
      'the same interval twice',
      { friday: [at('09:00', '10:00'), at('09:00', '10:00')] },
      'friday 09:00-10:00 overlaps 09:00-10:00',
    ],
  ])('refuses %s', (_, value, text) => {
    expect(refusal(() => parseWeeklyHours(value))).toEqual(problem(text));
  });
});

describe('parseDateOverrides', () => {
  it.each<[string, unknown, DateOverrides]>([
    ['no dates', {}, {}],
    ['a closed day', { '2026-12-24': [] }, { '2026-12-24': [] }],
    [
      'dates sorted, intervals sorted',
      {
        '2027-01-02': [at('14:00', '16:00'), at('10:00', '12:00')],
        '2026-12-27': [at('10:00', '14:00')],
        '2026-12-24': [],
      },
      {
        '2026-12-24': [],
        '2026-12-27': [at('10:00', '14:00')],
        '2027-01-02': [at('10:00', '12:00'), at('14:00', '16:00')],
      },
    ],
    [
      'a leap day',
      { '2028-02-29': [at('00:00', '24:00')] },
      { '2028-02-29': [at('00:00', '24:00')] },
    ],
    [
      '1000 dates',
      Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [isoDay(i), []])),
      Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [isoDay(i), []])),
    ],
  ])('accepts %s', (_, value, expected) => {
    const parsed = parseDateOverrides(value);
    expect(parsed).toEqual(expected);
    expect(Object.keys(parsed)).toEqual(Object.keys(expected));
  });

  const problem = (text: string) => ({
    code: 'invalid_overrides',
    message: `Invalid "overrides" attribute value: ${text}.`,
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'expected an object of dates (YYYY-MM-DD)'],
    ['an array', [{ '2026-12-24': [] }], 'expected an object of dates (YYYY-MM-DD)'],
    ['February 30', { '2026-02-30': [] }, '"2026-02-30" is not a date (YYYY-MM-DD)'],
    [
      'February 29 of a common year',
      { '2026-02-29': [] },
      '"2026-02-29" is not a date (YYYY-MM-DD)',
    ],
    ['month 13', { '2026-13-01': [] }, '"2026-13-01" is not a date (YYYY-MM-DD)'],
    ['a date without zero padding', { '2026-1-5': [] }, '"2026-1-5" is not a date (YYYY-MM-DD)'],
    ['a datetime', { '2026-12-24T00:00': [] }, '"2026-12-24T00:00" is not a date (YYYY-MM-DD)'],
    ['a weekday name', { monday: [] }, '"monday" is not a date (YYYY-MM-DD)'],
    [
      'more than 1000 dates',
      Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [isoDay(i), []])),
      'more than 1000 dates',
    ],
    [
      'a date that is not an array',
      { '2026-12-24': 'closed' },
      '2026-12-24 must be an array of intervals',
    ],
    ['a date that is null', { '2026-12-24': null }, '2026-12-24 must be an array of intervals'],
    [
      'a bad time',
      { '2026-12-24': [at('9:00', '12:00')] },
      '2026-12-24 interval 1 start "9:00" is not a time (HH:MM, 00:00 to 23:59)',
    ],
    [
      'an end before its start',
      { '2026-12-24': [at('13:00', '12:00')] },
      '2026-12-24 13:00-12:00 ends before it starts',
    ],
    [
      'overlapping intervals',
      { '2026-12-24': [at('09:00', '12:00'), at('11:59', '13:00')] },
      '2026-12-24 09:00-12:00 overlaps 11:59-13:00',
    ],
  ])('refuses %s', (_, value, text) => {
    expect(refusal(() => parseDateOverrides(value))).toEqual(problem(text));
  });
});

describe('workingIntervalsOn', () => {
  const hours: WeeklyHours = {
    monday: [at('09:00', '12:00'), at('13:00', '17:00')],
    saturday: [at('10:00', '14:00')],
  };
  const overrides: DateOverrides = {
    '2026-12-21': [at('10:00', '11:00')], // a Monday
    '2026-12-26': [], // a Saturday, closed
  };

  it.each<[string, string, { start: string; end: string }[]]>([
    ['a Monday without override: its weekly hours', '2026-12-14', hours.monday!],
    ['a Saturday without override: its weekly hours', '2026-12-19', hours.saturday!],
    ['a Sunday (absent from the week): closed', '2026-12-20', []],
    ['a Monday with an override: the override', '2026-12-21', [at('10:00', '11:00')]],
    ['a Saturday closed by an override', '2026-12-26', []],
    ['a leap day (a Tuesday, absent): closed', '2028-02-29', []],
  ])('%s', (_, date, expected) => {
    expect(workingIntervalsOn(hours, overrides, date)).toEqual(expected);
  });

  it('gives a copy the caller may change', () => {
    workingIntervalsOn(hours, overrides, '2026-12-14').push(at('18:00', '19:00'));
    expect(hours.monday).toHaveLength(2);
  });

  it('refuses a date that does not exist', () => {
    expect(() => workingIntervalsOn(hours, overrides, '2026-02-30')).toThrow(
      'Not a calendar date: "2026-02-30"',
    );
  });
});

/** `2026-01-01` plus `days`. */
function isoDay(days: number): string {
  return new Date(Date.UTC(2026, 0, 1 + days)).toISOString().slice(0, 10);
}
