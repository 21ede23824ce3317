import { AttributeError } from '../../common/errors/domain-error';
import { BUSY_SOURCE_TYPES } from './busy-source.entity';

export const MAX_SOURCES_PER_CALENDAR = 10;

/** A URL the outbound rules refuse; `reason` says why (see checkOutboundTarget). */
export class InvalidSourceUrlError extends AttributeError(
  'invalid_url',
  (reason: string) => `Attribute "url" ${reason}`,
) {}

/**
 * Every `lastError` a source can show its owner (sourceFailure), in words a business can act on;
 * never an address, a host name, a resolver's or a library's text. See docs/calendar-sync.md.
 */
export const LAST_ERRORS = {
  unreachable: 'The calendar server could not be reached.',
  timedOut: 'The calendar server took too long to answer.',
  refused: (status: number | string) => `The calendar server refused the request (HTTP ${status}).`,
  failing: (status: number | string) =>
    `The calendar server answered with an error (HTTP ${status}).`,
  tooLarge: 'The calendar is too large.',
  tooManyEvents: 'The calendar has too many events.',
  notCalendar: 'The address is not a calendar.',
  tooManyRedirects: 'The calendar address redirects too many times.',
  notAllowed: 'The calendar address is not allowed.',
  interrupted: 'The sync was interrupted; it will be tried again.',
  unexpected: 'The calendar could not be read; it will be tried again.',
} as const;

/* A constraint's context (ErrorContext), with a message: class-validator needs one to attach it. */
const withContext = (code: string, message: string) => ({ message, context: { code, message } });

export const INVALID_SOURCE_TYPE = withContext(
  'invalid_type',
  `Attribute "type" must be one of ${BUSY_SOURCE_TYPES.join(', ')}.`,
);
