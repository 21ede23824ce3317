import { fetchCalendarObjects, isCollectionDirty } from 'tsdav';
import type { OutboundTargetPolicy } from '../../common/net/outbound-target';
import {
  OutboundRequestError,
  type PinnedFetch,
  pinnedFetch,
  readLimited,
} from '../../common/net/pinned-fetch';
import type { Span } from '../availability';
import type { BusySourceType } from './busy-source.entity';

/** What reading a source came to: unchanged since `versionTag`, or its iCalendar texts. */
export type SourceRead =
  { kind: 'unchanged' } | { kind: 'read'; texts: string[]; versionTag: string | null };

/** A source as a sync reads it, its password unsealed. */
export interface SourceToRead {
  type: BusySourceType;
  url: string;
  username: string;
  password: string;
}

export interface ReadOptions {
  policy: OutboundTargetPolicy;
  signal: AbortSignal;
  /** The source's tag when it was last read whole; null to read it whatever it says. */
  knownTag: string | null;
  /** The span whose events a CalDAV time-range REPORT asks for. */
  window: Span;
}

/** A feed larger than this is refused (a year of a busy person's calendar is well under 1 MB). */
export const MAX_FEED_BYTES = 10 * 1024 * 1024;

/** Redirects followed for a feed, each hop checked as the first. */
const MAX_REDIRECTS = 3;

export function readSource(source: SourceToRead, options: ReadOptions): Promise<SourceRead> {
  return source.type === 'ics' ? readFeed(source, options) : readCaldav(source, options);
}

function authorization(source: SourceToRead): Record<string, string> {
  if (source.username === '' && source.password === '') return {};
  const basic = Buffer.from(`${source.username}:${source.password}`).toString('base64');
  return { authorization: `Basic ${basic}` };
}

/**
 * An iCalendar feed over HTTP(S): a conditional GET (If-None-Match with the ETag of the last read;
 * 304 is "unchanged"), redirects followed (each target checked again; credentials only sent to the
 * first origin).
 */
async function readFeed(source: SourceToRead, options: ReadOptions): Promise<SourceRead> {
  let url = source.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const sameOrigin = new URL(url).origin === new URL(source.url).origin;
    const http = await pinnedFetch(url, options.policy, options.signal);
    try {
      const response = await http.fetch(url, {
        headers: {
          accept: 'text/calendar, */*;q=0.5',
          'user-agent': 'scheduling-service-calendar-sync/1.0',
          ...(sameOrigin ? authorization(source) : {}),
          ...(options.knownTag ? { 'if-none-match': options.knownTag } : {}),
        },
      });
      if (response.status === 304) {
        await response.body?.cancel();
        return { kind: 'unchanged' };
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        url = new URL(location, url).href;
        continue;
      }
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel();
        throw new OutboundRequestError(`HTTP ${response.status}`);
      }
      const text = await readLimited(response, MAX_FEED_BYTES);
      return { kind: 'read', texts: [text], versionTag: response.headers.get('etag') };
    } finally {
      await http.close();
    }
  }
  throw new OutboundRequestError(`more than ${MAX_REDIRECTS} redirects`);
}

/**
 * A CalDAV calendar collection, with tsdav: its ctag first (PROPFIND; unchanged when it is the one
 * last read), then a calendar-query REPORT with a time-range filter on the window. The objects
 * come whole (series with their overrides), and are expanded here, not by the server, the same
 * way a feed is.
 */
async function readCaldav(source: SourceToRead, options: ReadOptions): Promise<SourceRead> {
  const http: PinnedFetch = await pinnedFetch(source.url, options.policy, options.signal);
  try {
    const headers = authorization(source);
    const collection = { url: source.url, ctag: options.knownTag ?? undefined };
    const { isDirty, newCtag } = await isCollectionDirty({
      collection,
      headers,
      fetch: http.fetch,
    });
    if (!isDirty) return { kind: 'unchanged' };
    const objects = await fetchCalendarObjects({
      calendar: { url: source.url },
      timeRange: {
        start: new Date(options.window.from).toISOString(),
        end: new Date(options.window.until).toISOString(),
      },
      urlFilter: () => true,
      headers,
      fetch: http.fetch,
    });
    const texts = objects
      .map((o) => (typeof o.data === 'string' ? o.data : ''))
      .filter((t) => t !== '');
    return { kind: 'read', texts, versionTag: newCtag ?? null };
  } finally {
    await http.close();
  }
}
