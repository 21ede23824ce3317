import type { ValidationOptions } from 'class-validator';
import { InvalidAttributeError } from '../errors/domain-error';
import { snake } from './http.errors';

/** A parameter left out, in the contract's words: `The parameter "calendarID" is required.` */
export class RequiredParameterError extends InvalidAttributeError {
  constructor(parameter: string) {
    super(`required_${snake(parameter)}`, `The parameter "${parameter}" is required.`);
  }
}

/**
 * `@IsDefined(requiredParameter('calendarID'))`: a check that fails as RequiredParameterError does.
 * The message is the constraint's too: class-validator gives a context only to a failure with one.
 */
export function requiredParameter(parameter: string): ValidationOptions {
  const { code, message } = new RequiredParameterError(parameter);
  return { message, context: { code, message } };
}
