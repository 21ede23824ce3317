/*
 * Calendar dates (`YYYY-MM-DD`) by plain UTC arithmetic: cheap enough for the slot engine, which
 * asks for every date of a month on each request.
 */

const DATE_TEXT = /^[1-9]\d{3}-\d{2}-\d{2}$/;

/** Epoch milliseconds of the date's midnight in UTC. */
export function utcMidnightOf(date: string): number {
  return Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  );
}

/** `YYYY-MM-DD` naming a day of the calendar (`2026-02-30` is not one), from the year 1000. */
export function isCalendarDate(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    DATE_TEXT.test(value) &&
    new Date(utcMidnightOf(value)).toISOString().startsWith(value)
  );
}
