import {
  ResponseTooLargeError,
  TargetRefusedError,
  TargetUnresolvedError,
} from '../../common/net/outbound-errors';
import { CalendarDataError, TooManyEventsError } from './busy-expansion';
import { LAST_ERRORS } from './calendar-sync.errors';
import { MultistatusError } from './dav-multistatus';

export { LAST_ERRORS };

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
 * The one place an error of a sync becomes the owner's `lastError`: why it failed, `message` for
 * the source's owner, `detail` for the operator's log only.
 */
export function sourceFailure(e: unknown, signal: AbortSignal) {
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

/** undici's fetch fails with a TypeError (`fetch failed`, `terminated`), its cause a code. */
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
