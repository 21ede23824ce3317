import {
  ConflictError,
  InvalidAttributeError,
  NotFoundError,
} from '../../common/errors/domain-error';

/* The errors of accounts, as the CLI and the account endpoints give them. */

export class InvalidEmailError extends InvalidAttributeError {
  constructor() {
    super('invalid_email', 'Invalid "email" attribute value.');
  }
}

export class InvalidNameError extends InvalidAttributeError {
  constructor() {
    super('invalid_name', 'Attribute "name" must be 1 to 255 characters.');
  }
}

/** `timezone` as the message quotes it: the name sent, or the JSON of a value that is no string. */
export class InvalidTimezoneError extends InvalidAttributeError {
  constructor(timezone: string) {
    super('invalid_timezone', `Invalid timezone "${timezone}".`);
  }
}

export class InvalidPasswordError extends InvalidAttributeError {
  constructor(minLength: number, maxLength: number) {
    super('invalid_password', `A password must be ${minLength} to ${maxLength} characters long.`);
  }
}

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

export class InvalidRequestsPerMinuteError extends InvalidAttributeError {
  constructor(max: number) {
    super('invalid_requests_per_minute', `A limit must be 1 to ${max} requests per minute.`);
  }
}
/** An entry of `embedOrigins` that is not an http(s) origin (scheme, host, optional port). */
export class InvalidEmbedOriginError extends InvalidAttributeError {
  constructor(origin: string) {
    super(
      'invalid_embed_origins',
      `Invalid origin "${origin}" in "embedOrigins": an origin is https://host or https://host:port (http for localhost), without a path.`,
    );
  }
}
