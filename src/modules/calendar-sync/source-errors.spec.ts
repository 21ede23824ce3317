import {
  ResponseTooLargeError,
  TargetRefusedError,
  TargetUnresolvedError,
} from '../../common/net/outbound-errors';
import { CalendarDataError, TooManyEventsError } from './busy-expansion';
import { MultistatusError } from './dav-multistatus';
import {
  LAST_ERRORS,
  NotCalendarError,
  SourceHttpError,
  TooManyRedirectsError,
  sourceFailure,
} from './source-errors';

/** What no `lastError` may hold: an address (IPv4, IPv6), a resolver's word or code. */
const LEAKS = /\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f]*:|resolv|ENOTFOUND|EAI_|ECONN|localhost/i;

const live = () => new AbortController().signal;
const fetchFailed = (code: string) => new TypeError('fetch failed', { cause: { code } });

/** `TypeError: fetch failed (ECONNREFUSED)`: a row's name (an error's own is its stack). */
function named(error: unknown): { error: unknown; toString(): string } {
  if (!(error instanceof Error)) return { error, toString: () => JSON.stringify(error) };
  const code = (error.cause as { code?: string } | undefined)?.code;
  const text = `${error.constructor.name}: ${error.message}${code ? ` (${code})` : ''}`;
  return { error, toString: () => text };
}

describe('sourceFailure: an error of a sync in the words of its lastError', () => {
  it.each(
    [
      [new TargetUnresolvedError('cannot resolve vm.: ENOTFOUND'), LAST_ERRORS.unreachable],
      [fetchFailed('ECONNREFUSED'), LAST_ERRORS.unreachable],
      [fetchFailed('UND_ERR_CONNECT_TIMEOUT'), LAST_ERRORS.unreachable],
      [fetchFailed('DEPTH_ZERO_SELF_SIGNED_CERT'), LAST_ERRORS.unreachable],
      [new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } }), LAST_ERRORS.unreachable],
      [new SourceHttpError(401), 'The calendar server refused the request (HTTP 401).'],
      [new SourceHttpError(404), 'The calendar server refused the request (HTTP 404).'],
      [new SourceHttpError(503), 'The calendar server answered with an error (HTTP 503).'],
      [new SourceHttpError(302), LAST_ERRORS.notCalendar],
      [new ResponseTooLargeError(10_485_760), 'The calendar is too large.'],
      [new TooManyEventsError('more than 20000 events'), 'The calendar has too many events.'],
      [new CalendarDataError('not iCalendar data: invalid line'), 'The address is not a calendar.'],
      [new MultistatusError('not a multistatus: {}html'), LAST_ERRORS.notCalendar],
      [new NotCalendarError('PROPFIND redirected (HTTP 301)'), LAST_ERRORS.notCalendar],
      [new TooManyRedirectsError('more than 3 redirects'), LAST_ERRORS.tooManyRedirects],
      [new TargetRefusedError('address 127.0.0.1 is not public'), LAST_ERRORS.notAllowed],
      [new TargetRefusedError('port 5232 is not allowed'), LAST_ERRORS.notAllowed],
      [new Error('ER_LOCK_WAIT_TIMEOUT: Lock wait timeout exceeded'), LAST_ERRORS.unexpected],
      [new TypeError("Cannot read properties of undefined (reading 'x')"), LAST_ERRORS.unexpected],
      ['a string', LAST_ERRORS.unexpected],
    ].map(([error, message]) => [named(error), message]),
  )('%s → %j', ({ error }, message) => {
    expect(sourceFailure(error, live()).message).toBe(message);
  });

  it('keeps the detail, address and resolver code included, for the log', () => {
    expect(
      sourceFailure(new TargetUnresolvedError('cannot resolve vm.: ENOTFOUND'), live()),
    ).toEqual({
      message: 'The calendar server could not be reached.',
      detail: 'cannot resolve vm.: ENOTFOUND',
    });
    expect(sourceFailure(fetchFailed('ECONNREFUSED'), live()).detail).toBe(
      'fetch failed (ECONNREFUSED)',
    );
  });

  it('says the signal when it fired, whatever the read threw then', async () => {
    const timedOut = AbortSignal.timeout(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sourceFailure(fetchFailed('UND_ERR_ABORTED'), timedOut)).toEqual({
      message: 'The calendar server took too long to answer.',
      detail: 'timed out',
    });
    const stopping = new AbortController();
    stopping.abort();
    expect(sourceFailure(new Error('aborted'), stopping.signal)).toEqual({
      message: 'The sync was interrupted; it will be tried again.',
      detail: 'stopped (the worker shut down)',
    });
  });

  it('never shows an address or a resolver’s words, in any of its messages', () => {
    const messages = Object.values(LAST_ERRORS).map((m) => (typeof m === 'string' ? m : m(401)));
    expect(messages.filter((m) => LEAKS.test(m))).toEqual([]);
    expect(LEAKS.test('address 127.0.0.1 is not public')).toBe(true);
    expect(LEAKS.test('cannot resolve vm.: ENOTFOUND')).toBe(true);
    expect(LEAKS.test('[::ffff:a00:1]')).toBe(true);
  });
});
