/*
 * Calendar dates (`YYYY-MM-DD`) and months (`YYYY-MM`) by plain UTC arithmetic: cheap enough for
 * the slot engine, which asks for every date of a month on each request.
 */

/**
 * The years a date, datetime or month sent to the service may name, the API's and the pages'
 * alike (the parsers here and parseDatetime apply it; every caller reads through them). Wide enough
 * for any booking, list filter or expiry a business means, and narrow enough that nothing computed
 * from such a value leaves what a MySQL DATETIME stores (1000–9999): the widest offset moves an
 * instant 18 hours, and the windows read around a date or month (busy time, booking limits, a
 * week) reach days, not centuries, past it. A year outside is refused as an impossible date is.
 */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2999;

/** The rule in the words of the API's documentation. */
export const SUPPORTED_YEARS_RULE = `Years ${FIRST_YEAR}–${LAST_YEAR}; another is refused as an impossible date is.`;

/** Whether `year` lies in FIRST_YEAR–LAST_YEAR. */
export function isSupportedYear(year: number): boolean {
  return year >= FIRST_YEAR && year <= LAST_YEAR;
}

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
/** From 1000: Date.UTC reads the years 0–99 as 1900–1999. */
const ANY_YEAR_DATE_TEXT = /^[1-9]\d{3}-\d{2}-\d{2}$/;
const MONTH_TEXT = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Epoch milliseconds of the date's midnight in UTC. */
export function utcMidnightOf(date: string): number {
  return Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  );
}

const namesDay = (value: string) => new Date(utcMidnightOf(value)).toISOString().startsWith(value);

/**
 * `YYYY-MM-DD` naming a day of the calendar (`2026-02-30` is not one) of a supported year: a date
 * as the service takes it from outside.
 */
export function isCalendarDate(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    DATE_TEXT.test(value) &&
    isSupportedYear(Number(value.slice(0, 4))) &&
    namesDay(value)
  );
}

/**
 * `YYYY-MM-DD` naming a day of the calendar of any year from 1000: for the dates the service works
 * out itself, such as the local days around a supported date that a window in another zone covers
 * (1899-12-31 for 1900-01-01 read at +14:00). Never the check of a date sent to it.
 */
export function isAnyYearDate(value: unknown): value is string {
  return typeof value === 'string' && ANY_YEAR_DATE_TEXT.test(value) && namesDay(value);
}

/** `YYYY-MM` naming a month (01–12) of a supported year. */
export function isCalendarMonth(value: unknown): value is string {
  const match = typeof value === 'string' ? MONTH_TEXT.exec(value) : null;
  return match !== null && isSupportedYear(Number(match[1]));
}
