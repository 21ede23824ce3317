import { AttributeError } from '../errors/domain-error';

/** A datetime that names no moment in the calendar's zone, as the client sent it. */
export class InvalidDatetimeError extends AttributeError(
  'invalid_datetime',
  (datetime: string) => `The datetime "${datetime}" is invalid.`,
) {}
