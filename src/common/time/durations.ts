/** Lengths of real time in milliseconds (a day here is 24 hours, not a calendar date). */
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
