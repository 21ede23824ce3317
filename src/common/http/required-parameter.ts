import type { ValidationOptions } from 'class-validator';
import { InvalidAttributeError } from '../errors/domain-error';
import { snake } from './http.errors';

/**
 * A parameter left out, in the contract's words (as POST /appointments gives it):
 * `required_calendar_id`, `The parameter "calendarID" is required.`
 */
export class RequiredParameterError extends InvalidAttributeError {
  constructor(parameter: string) {
    super(`required_${snake(parameter)}`, `The parameter "${parameter}" is required.`);
  }
}

/**
 * `@IsDefined(requiredParameter('calendarID'))` (or `@IsNotBlank(…)`): a DTO's check that fails as
 * RequiredParameterError does. The message is the constraint's too: class-validator attaches a
 * context only to a failure with a message.
 */
export function requiredParameter(parameter: string): ValidationOptions {
  const { code, message } = new RequiredParameterError(parameter);
  return { message, context: { code, message } };
}
