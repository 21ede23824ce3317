import { AttributeError, ConflictError, NotFoundError } from '../../common/errors/domain-error';

export class InvalidEmailError extends AttributeError(
  'invalid_email',
  () => 'Invalid "email" attribute value.',
) {}

export class InvalidNameError extends AttributeError(
  'invalid_name',
  () => 'Attribute "name" must be 1 to 255 characters.',
) {}

/** `timezone` as the message quotes it: the name sent, or the JSON of a value that is no string. */
export class InvalidTimezoneError extends AttributeError(
  'invalid_timezone',
  (timezone: string) => `Invalid timezone "${timezone}".`,
) {}

export class InvalidPasswordError extends AttributeError(
  'invalid_password',
  (minLength: number, maxLength: number) =>
    `A password must be ${minLength} to ${maxLength} characters long.`,
) {}

export class EmailTakenError extends ConflictError {
  constructor(email: string) {
    super('email_taken', `An account with the e-mail "${email}" already exists.`);
  }
}

export class AccountNotFoundError extends NotFoundError {
  constructor(accountId: number) {
    super(`The account "${accountId}" does not exist.`);
  }
}

export class EnterpriseNotFoundError extends NotFoundError {
  constructor(enterpriseId: number) {
    super(`The enterprise "${enterpriseId}" does not exist.`);
  }
}

/** An account belongs to at most one enterprise. */
export class AlreadyMemberError extends ConflictError {
  constructor(accountId: number, enterpriseId: number) {
    super(
      'already_member',
      `The account "${accountId}" already belongs to the enterprise "${enterpriseId}".`,
    );
  }
}

export class InvalidRequestsPerMinuteError extends AttributeError(
  'invalid_requests_per_minute',
  (max: number) => `A limit must be 1 to ${max} requests per minute.`,
) {}
/** An entry of `embedOrigins` that is not an http(s) origin (scheme, host, optional port). */
export class InvalidEmbedOriginError extends AttributeError(
  'invalid_embed_origins',
  (origin: string) =>
    `Invalid origin "${origin}" in "embedOrigins": an origin is https://host or https://host:port (http for localhost), without a path.`,
) {}

/** `language` as sent: one the pages, e-mails and SMS are written in (LANGUAGES). */
export class InvalidLanguageError extends AttributeError(
  'invalid_language',
  (language: string, languages: readonly string[]) =>
    `Invalid language "${language}": the pages speak ${languages.slice(0, -1).join(', ')} or ${languages.at(-1)}.`,
) {}

/** `accentColor` as sent, when it is no `#rrggbb`. */
export class MalformedAccentColorError extends AttributeError(
  'invalid_accent_color',
  (color: string) =>
    `Invalid "accentColor" "${color}": a colour is #rrggbb (six hexadecimal digits).`,
) {}

/** An `accentColor` that white text (and links on white) would be too hard to read on. */
export class LowContrastAccentColorError extends AttributeError(
  'invalid_accent_color',
  (color: string, ratio: string, minimum: number) =>
    `Invalid "accentColor" ${color}: its contrast against white is ${ratio}:1, and text on the pages needs at least ${minimum}:1 (WCAG AA). Choose a darker colour.`,
) {}

/** `logoUrl` as sent, when it is no https URL that may go into a page and its CSP. */
export class InvalidLogoUrlError extends AttributeError(
  'invalid_logo_url',
  (url: string) =>
    `Invalid "logoUrl" "${url}": a logo is an https:// URL (without user name or password).`,
) {}
