import { DateTime } from 'luxon';
import { BoundedMap } from '../cache/bounded-map';
import { formatCents } from '../money/money';
import { isAnyYearDate, utcMidnightOf } from '../time/calendar-dates';
import type { Language } from './languages';
import { LOCALES, messagesOf } from './messages';

/*
 * Dates, times and prices as a language writes them (Intl in its locale: "lunes, 4 de enero de
 * 2027", "Montag, 4. Januar 2027"). English keeps the house's own forms ("Monday, January 4,
 * 2027", "9:30am"), which the API's e-mails and the pages have always written. Formatters are
 * made once per language (and zone): a new Intl formatter per call costs a parse each, and a page
 * writes dozens of dates.
 */

const perLanguage = <T>(make: (locale: string, language: Language) => T) => {
  const made = new Map<Language, T>();
  return (language: Language): T => {
    let value = made.get(language);
    if (value === undefined) {
      value = make(LOCALES[language], language);
      made.set(language, value);
    }
    return value;
  };
};

const longDates = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    }),
);

/** A page writes the same few dates again and again. */
const writtenDays = new BoundedMap<string, string>(4096);

/** `Monday, June 3, 2030` of a `YYYY-MM-DD`; a date no calendar has (`2030-02-31`) as it is. */
export function dayOf(language: Language, date: string): string {
  const id = language + date;
  let day = writtenDays.get(id);
  if (day === undefined) {
    day = isAnyYearDate(date) ? longDates(language).format(utcMidnightOf(date)) : date;
    writtenDays.set(id, day);
  }
  return day;
}

const dates = perLanguage(
  (locale) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    }),
);

/** `June 3, 2030`, `3 de junio de 2030`: a `YYYY-MM-DD` without its weekday (a subject, an SMS). */
export function dateOf(language: Language, date: string): string {
  return isAnyYearDate(date) ? dates(language).format(utcMidnightOf(date)) : date;
}

const zoneNames = new BoundedMap<string, Intl.DateTimeFormat>(2048);

/** The zone's short name at an instant, as the language writes it: `EDT`, `GMT-4`, `MEZ`. */
export function zoneNameAt(language: Language, instant: Date, zone: string): string {
  const id = `${language} ${zone}`;
  let format = zoneNames.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[language], { timeZone: zone, timeZoneName: 'short' });
    zoneNames.set(id, format);
  }
  return format.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** The day of an instant in a zone, as `dayOf` writes it ("lunes, 4 de enero de 2027"). */
export function dayAt(language: Language, instant: Date, zone: string): string {
  return dayOf(language, DateTime.fromJSDate(instant, { zone }).toISODate()!);
}

const monthNames = perLanguage((locale) => {
  const format = new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    month: 'long',
    year: 'numeric',
  });
  return (year: number, month: number) => format.format(Date.UTC(year, month - 1, 15));
});

/** `June 2030` of a `YYYY-MM` ("junio de 2030", "Juni 2030"). */
export function monthOf(language: Language, month: string): string {
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7));
  return monthNames(language)(year, index);
}

/** The names of the days of the week, Sunday first (0), long and short, for a month's grid. */
export const weekdaysOf = perLanguage((locale) =>
  // 2023-01-01 was a Sunday.
  Array.from({ length: 7 }, (_, day) => {
    const at = Date.UTC(2023, 0, 1 + day);
    const name = (weekday: 'long' | 'short') =>
      new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday }).format(at);
    return { long: name('long'), short: name('short') };
  }),
);

/** Spanish writes `9:30`; French and German, `09:30`. */
const clocks = perLanguage(
  (locale, language) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: 'UTC',
      hour: language === 'es' ? 'numeric' : '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }),
);
const writtenClocks = new BoundedMap<string, string>(4096);

/** A wall-clock time as the language writes it: `9:30am`, `9:30` (es), `09:30` (fr, de). */
export function clockAt(language: Language, hour: number, minute: number): string {
  if (language === 'en')
    return `${hour % 12 || 12}:${String(minute).padStart(2, '0')}${hour < 12 ? 'am' : 'pm'}`;
  const id = `${language}${hour}:${minute}`;
  let clock = writtenClocks.get(id);
  if (clock === undefined) {
    clock = clocks(language).format(Date.UTC(2000, 0, 1, hour, minute));
    writtenClocks.set(id, clock);
  }
  return clock;
}

/** The clock time of a time of the time list (`2030-06-03T09:30:00-0400`), read off its digits. */
export const clockOf = (language: Language, time: string): string =>
  clockAt(language, Number(time.slice(11, 13)), Number(time.slice(14, 16)));

/** One formatter of moments per language and zone, made on first use. */
const moments = new BoundedMap<string, Intl.DateTimeFormat>(2048);

/**
 * `Monday, June 3, 2030 at 9:30am (EDT)`, `lunes, 3 de junio de 2030, 9:30 (GMT-4)`: an instant (a
 * `Date`, or a time as the API writes it) in a zone, with the zone's short name there and then.
 */
export function momentIn(language: Language, instant: Date | string, zone: string): string {
  const at =
    typeof instant === 'string'
      ? DateTime.fromISO(instant, { setZone: true }).toMillis()
      : instant.getTime();
  const id = `${language} ${zone}`;
  let format = moments.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[language], {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    moments.set(id, format);
  }
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of format.formatToParts(at)) part[type] = value;
  const { year, month, day, hour, minute, timeZoneName } = part;
  return messagesOf(language)('moment', {
    date: dayOf(language, `${year}-${month}-${day}`),
    time: clockAt(language, Number(hour) % 24, Number(minute)),
    zone: timeZoneName!,
  });
}

/** One formatter per language and currency, made on first use; null for a code Intl refuses. */
const prices = new BoundedMap<string, Intl.NumberFormat | null>(512);

/** `$40.00`, `40,00 US$` (in the account's currency), or `Free` in the language. */
export function priceOf(language: Language, decimal: string | number, currency: string): string {
  const amount = Number(decimal);
  if (amount === 0) return messagesOf(language)('price.free');
  const id = language + currency;
  let format = prices.get(id);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(LOCALES[language], { style: 'currency', currency });
    } catch {
      format = null;
    }
    prices.set(id, format);
  }
  return format?.format(amount) ?? `${formatCents(Math.round(amount * 100))} ${currency}`;
}
