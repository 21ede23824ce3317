import {
  ResponseTooLargeError,
  TargetRefusedError,
  TargetUnresolvedError,
} from '../../common/net/outbound-errors';
import { CalendarDataError, TooManyEventsError } from './busy-expansion';
import { MultistatusError } from './dav-multistatus';

/** A source's server answered with a status other than success (the feed's, CalDAV's). */
export class SourceHttpError extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** The address answers, but not as a calendar does (a page, a redirect, a folder of files). */
export class NotCalendarError extends Error {}

/** A feed that redirects more often than a sync follows. */
export class TooManyRedirectsError extends Error {}

/**
 * Every `lastError` a source can show its owner: what went wrong in words a business can act on
 * (check the address, the password, wait for its calendar provider), never an address, a host
 * name, a resolver's or a library's text: those go to the worker's log with the source's id (see
 * sourceFailure). docs/calendar-sync.md lists them with what to do about each.
 */
export const LAST_ERRORS = {
  unreachable: 'The calendar server could not be reached.',
  timedOut: 'The calendar server took too long to answer.',
  refused: (status: number) => `The calendar server refused the request (HTTP ${status}).`,
  failing: (status: number) => `The calendar server answered with an error (HTTP ${status}).`,
  tooLarge: 'The calendar is too large.',
  tooManyEvents: 'The calendar has too many events.',
  notCalendar: 'The address is not a calendar.',
  tooManyRedirects: 'The calendar address redirects too many times.',
  notAllowed: 'The calendar address is not allowed.',
  interrupted: 'The sync was interrupted; it will be tried again.',
  unexpected: 'The calendar could not be read; it will be tried again.',
} as const;

/** Why a sync failed: `message` for the source's owner, `detail` for the operator's log only. */
export interface SourceFailure {
  message: string;
  detail: string;
}

/** The one place an error of a sync becomes the owner's `lastError`. */
export function sourceFailure(e: unknown, signal: AbortSignal): SourceFailure {
  return { message: messageOf(e, signal), detail: detailOf(e, signal) };
}

function messageOf(e: unknown, signal: AbortSignal): string {
  // Whatever the read was doing when the signal fired, the signal is why it stopped.
  if (signal.aborted) return isTimeout(signal) ? LAST_ERRORS.timedOut : LAST_ERRORS.interrupted;
  if (e instanceof ResponseTooLargeError) return LAST_ERRORS.tooLarge;
  if (e instanceof TooManyEventsError) return LAST_ERRORS.tooManyEvents;
  if (e instanceof TargetRefusedError) return LAST_ERRORS.notAllowed;
  if (e instanceof TargetUnresolvedError) return LAST_ERRORS.unreachable;
  if (e instanceof TooManyRedirectsError) return LAST_ERRORS.tooManyRedirects;
  if (e instanceof SourceHttpError) {
    if (e.status >= 500) return LAST_ERRORS.failing(e.status);
    if (e.status >= 400) return LAST_ERRORS.refused(e.status);
    return LAST_ERRORS.notCalendar;
  }
  if (
    e instanceof NotCalendarError ||
    e instanceof CalendarDataError ||
    e instanceof MultistatusError
  )
    return LAST_ERRORS.notCalendar;
  if (isNetworkError(e)) return LAST_ERRORS.unreachable;
  return LAST_ERRORS.unexpected;
}

function isTimeout(signal: AbortSignal): boolean {
  return signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError';
}

/**
 * undici's fetch fails with a TypeError whose cause says what the network did (`ECONNREFUSED`,
 * `UND_ERR_SOCKET`, a TLS certificate's code), when connecting (`fetch failed`) or in the middle of
 * a body (`terminated`).
 */
function isNetworkError(e: unknown): boolean {
  if (!(e instanceof TypeError)) return false;
  const cause = (e as { cause?: { code?: unknown } }).cause;
  return (
    e.message === 'fetch failed' || e.message === 'terminated' || typeof cause?.code === 'string'
  );
}

function detailOf(e: unknown, signal: AbortSignal): string {
  if (signal.aborted) return isTimeout(signal) ? 'timed out' : 'stopped (the worker shut down)';
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail && !e.message.includes(detail) ? `${e.message} (${detail})` : e.message;
}
