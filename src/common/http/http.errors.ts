import {
  AttributeError,
  BadRequestError,
  DomainError,
  InvalidAttributeError,
} from '../errors/domain-error';

/*
 * What the API refuses in any request before a module sees it. Codes are named after the top-level
 * attribute (`invalid_<attribute>`), messages after the whole path (`fields.0.value`).
 */

/** A path into a request: `['fields', 0, 'value']`, or one attribute's name. */
export type AttributePath = string | readonly (string | number)[];

/** `firstName` → `first_name`: an attribute as its error codes name it. */
export function snake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase();
}

const topOf = (path: AttributePath): string => (typeof path === 'string' ? path : String(path[0]));
const joined = (path: AttributePath): string => (typeof path === 'string' ? path : path.join('.'));

/** `required_<attribute>`: missing (or blank where it must have text). */
export class RequiredAttributeError extends InvalidAttributeError {
  constructor(path: AttributePath) {
    super(`required_${snake(topOf(path))}`, `Attribute "${joined(path)}" is required.`);
  }
}

/** `invalid_<attribute>`: a value of the wrong type or out of its range. */
export class InvalidAttributeValueError extends InvalidAttributeError {
  constructor(path: AttributePath) {
    super(`invalid_${snake(topOf(path))}`, `Invalid "${joined(path)}" attribute value.`);
  }
}

/** An update emptying a required text attribute (it may be left out instead). */
export class UnclearableAttributeError extends InvalidAttributeError {
  constructor(path: AttributePath) {
    super(`invalid_${snake(topOf(path))}`, `Attribute "${joined(path)}" cannot be cleared.`);
  }
}

/** A DTO refused the request without naming an attribute. */
export class UnnamedAttributeError extends AttributeError('bad_request', () => 'Bad Request') {}

/** A string of the body past the backstop every attribute has (see MAX_STRING_LENGTH). */
export class AttributeTooLongError extends InvalidAttributeError {
  constructor(path: AttributePath, maxLength: number) {
    super(
      `invalid_${snake(topOf(path))}`,
      `Attribute "${joined(path)}" is longer than ${maxLength} characters.`,
    );
  }
}

/** The same, for a string under a key that may not be named in an error. */
export class BodyStringTooLongError extends BadRequestError {
  constructor(maxLength: number) {
    super('bad_request', `A string in the body is longer than ${maxLength} characters.`);
  }
}

/** A string of the body that is not well-formed text (a lone surrogate), under a key not named. */
export class BodyStringNotTextError extends BadRequestError {
  constructor() {
    super('bad_request', 'A string in the body is not valid Unicode text.');
  }
}

/** Past a bound of a JSON body's shape (see json-shape.ts), named in its message. */
export class JsonShapeError extends BadRequestError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** A media type as written in a Content-Type header (RFC 9110 tokens), short enough to echo. */
const MEDIA_TYPE = /^[a-z0-9!#$%&'*+.^_`|~-]{1,50}\/[a-z0-9!#$%&'*+.^_`|~-]{1,50}$/;

/** A body sent as anything but JSON (`text/plain`, a form…): 415. */
export class UnsupportedMediaTypeError extends DomainError {
  constructor(mediaType: string) {
    super(
      415,
      'unsupported_media_type',
      `${MEDIA_TYPE.test(mediaType) ? `Content-Type "${mediaType}"` : 'This Content-Type'} is not supported; send "application/json".`,
    );
  }
}

/** An OAuth endpoint's form past its limit (see FORM_BODY_LIMIT_BYTES). */
export class FormTooLargeError extends DomainError {
  constructor(maxBytes: number) {
    super(413, 'payload_too_large', `The request body is larger than ${maxBytes} bytes.`);
  }
}
