import { InvalidAttributeError } from '../errors/domain-error';

/**
 * A datetime that names no moment in the calendar's zone (see parseDatetime); `datetime` as the
 * client sent it.
 */
export class InvalidDatetimeError extends InvalidAttributeError {
  constructor(datetime: string) {
    super('invalid_datetime', `The datetime "${datetime}" is invalid.`);
  }
}
