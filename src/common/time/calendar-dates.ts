/* Calendar dates and months by plain UTC arithmetic: the slot engine asks for a month's dates. */

/**
 * The years a date, datetime or month sent to the service may name: wide enough for anything a
 * business means, narrow enough that nothing computed from one (an 18-hour offset, windows of
 * days) leaves what a MySQL DATETIME stores (1000–9999). Another is refused as an impossible date.
 */
export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2999;

/** The rule in the words of the API's documentation. */
export const SUPPORTED_YEARS_RULE = `Years ${FIRST_YEAR}–${LAST_YEAR}; another is refused as an impossible date is.`;

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

/**
 * Whether a `YYYY-MM-DD` of a year from 1000 to 9999 names its own day (`2026-02-30` names March
 * 2nd): read back from the Date, no ISO text written (the slot engine asks for every day).
 */
function namesDay(value: string): boolean {
  const day = new Date(utcMidnightOf(value));
  return (
    day.getUTCDate() === Number(value.slice(8, 10)) &&
    day.getUTCMonth() + 1 === Number(value.slice(5, 7)) &&
    day.getUTCFullYear() === Number(value.slice(0, 4))
  );
}

/** `YYYY-MM-DD` naming a day of the calendar (`2026-02-30` is not one) of a supported year. */
export function isCalendarDate(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    DATE_TEXT.test(value) &&
    isSupportedYear(Number(value.slice(0, 4))) &&
    namesDay(value)
  );
}

/**
 * `YYYY-MM-DD` of any year from 1000: for the dates the service works out itself (1899-12-31 for
 * 1900-01-01 read at +14:00), never the check of a date sent to it.
 */
export function isAnyYearDate(value: unknown): value is string {
  return typeof value === 'string' && ANY_YEAR_DATE_TEXT.test(value) && namesDay(value);
}

/** `YYYY-MM` naming a month (01–12) of a supported year. */
export function isCalendarMonth(value: unknown): value is string {
  const match = typeof value === 'string' ? MONTH_TEXT.exec(value) : null;
  return match !== null && isSupportedYear(Number(match[1]));
}
