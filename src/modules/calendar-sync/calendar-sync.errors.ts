import { InvalidAttributeError } from '../../common/errors/domain-error';
import { BUSY_SOURCE_TYPES } from './busy-source.entity';

/** Busy sources one calendar may have. */
export const MAX_SOURCES_PER_CALENDAR = 10;

/** A URL the outbound rules refuse; `reason` says why (see checkOutboundTarget). */
export class InvalidSourceUrlError extends InvalidAttributeError {
  constructor(reason: string) {
    super('invalid_url', `Attribute "url" ${reason}`);
  }
}

export class TooManySourcesError extends InvalidAttributeError {
  constructor() {
    super(
      'too_many_sources',
      `A calendar can have at most ${MAX_SOURCES_PER_CALENDAR} busy sources; delete one to add another.`,
    );
  }
}

/*
 * Contexts of request constraints (see ErrorContext). `message` as well as `context`: class-validator
 * attaches a context only to a failure with a non-empty message.
 */
const withContext = (code: string, message: string) => ({ message, context: { code, message } });

export const INVALID_SOURCE_TYPE = withContext(
  'invalid_type',
  `Attribute "type" must be one of ${BUSY_SOURCE_TYPES.join(', ')}.`,
);
