import { boundedText } from '../../common/net/bounded-body';
import { type PinnedFetch, pinnedFetch } from '../../common/net/pinned-fetch';
import {
  CALDAV,
  CALENDARSERVER,
  DAV,
  type DavResponse,
  parseMultistatus,
  qualified,
} from './dav-multistatus';
import { NotCalendarError, SourceHttpError } from './source-errors';
import {
  type ReadOptions,
  type SourceRead,
  type SourceToRead,
  USER_AGENT,
  authorization,
} from './source-read';

const RESOURCETYPE = qualified(DAV, 'resourcetype');
const GETCTAG = qualified(CALENDARSERVER, 'getctag');
const SYNC_TOKEN = qualified(DAV, 'sync-token');
const CALENDAR = qualified(CALDAV, 'calendar');
const CALENDAR_DATA = qualified(CALDAV, 'calendar-data');
const COLLECTION_PROPS = new Set([RESOURCETYPE, GETCTAG, SYNC_TOKEN]);
const OBJECT_PROPS = new Set([CALENDAR_DATA]);

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>';
const NAMESPACES = `xmlns:d="${DAV}" xmlns:c="${CALDAV}" xmlns:cs="${CALENDARSERVER}"`;
const OBJECT_PROP = '<d:prop><d:getetag/><c:calendar-data/></d:prop>';

/**
 * A CalDAV calendar collection (RFC 4791), each answer streamed through the parser within the
 * sync's byte budget:
 *
 * 1. PROPFIND (Depth 0): a calendar, whose `getctag` (or `sync-token`) is its version.
 * 2. REPORT calendar-query over the window for whole objects, expanded here, not by the server
 *    (servers' `expand` differ on overrides and zones); objects listed without their data are
 *    asked for again by a calendar-multiget, as clients do.
 *
 * Redirects are not followed: a CalDAV client is given its collection's own address.
 */
export async function readCaldav(source: SourceToRead, options: ReadOptions): Promise<SourceRead> {
  const http: PinnedFetch = await pinnedFetch(source.url, options.policy, options.signal);
  const request = (call: DavCall) => davRequest(http, source, options, call);
  try {
    // Depth 0 asks for the collection alone: its own response, or the first if none names it.
    let first: DavResponse | undefined;
    let own: DavResponse | undefined;
    await request({
      method: 'PROPFIND',
      depth: '0',
      body: `${XML_HEAD}<d:propfind ${NAMESPACES}><d:prop><d:resourcetype/><cs:getctag/><d:sync-token/></d:prop></d:propfind>`,
      wanted: COLLECTION_PROPS,
      each: (r) => {
        first ??= r;
        if (own === undefined && samePath(r.href, source.url)) own = r;
      },
    });
    const collection = own ?? first;
    if (!collection?.props.get(RESOURCETYPE)?.children.includes(CALENDAR))
      throw new NotCalendarError('the address is not a calendar collection');
    const tag =
      [GETCTAG, SYNC_TOKEN].map((p) => collection.props.get(p)?.text.trim()).find(Boolean) ?? null;
    if (tag !== null && tag === options.knownTag) return { kind: 'unchanged' };

    // Each object's data goes to onText as it closes; those listed without it are asked for again.
    const missing: string[] = [];
    await request({
      method: 'REPORT',
      depth: '1',
      body: `${XML_HEAD}<c:calendar-query ${NAMESPACES}>${OBJECT_PROP}<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${icalUtc(options.window.from)}" end="${icalUtc(options.window.until)}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
      wanted: OBJECT_PROPS,
      each: objects(source.url, (object) =>
        object.data === null ? missing.push(object.href) : options.onText(object.data),
      ),
    });
    if (missing.length > 0) {
      const hrefs = missing.map((href) => `<d:href>${escapeXml(href)}</d:href>`).join('');
      await request({
        method: 'REPORT',
        depth: '1',
        body: `${XML_HEAD}<c:calendar-multiget ${NAMESPACES}>${OBJECT_PROP}${hrefs}</c:calendar-multiget>`,
        wanted: OBJECT_PROPS,
        each: objects(source.url, (object) => object.data !== null && options.onText(object.data)),
      });
    }
    return { kind: 'read', versionTag: tag };
  } finally {
    await http.close();
  }
}

interface DavCall {
  method: string;
  depth: string;
  body: string;
  wanted: ReadonlySet<string>;
  each: (response: DavResponse) => void;
}

/** One WebDAV request on the collection; its multistatus answer streamed through the parser. */
async function davRequest(
  http: PinnedFetch,
  source: SourceToRead,
  options: ReadOptions,
  { method, depth, body, wanted, each }: DavCall,
): Promise<void> {
  const response = await http.fetch(source.url, {
    method,
    headers: {
      ...authorization(source),
      accept: 'application/xml, text/xml;q=0.9',
      'content-type': 'application/xml; charset=utf-8',
      'user-agent': USER_AGENT,
      depth,
    },
    body,
  });
  if (response.status < 200 || response.status >= 300) {
    await response.body?.cancel();
    if (response.status >= 300 && response.status < 400)
      throw new NotCalendarError(`${method} redirected (HTTP ${response.status})`);
    throw new SourceHttpError(response.status);
  }
  await parseMultistatus(boundedText(response, options.budget), wanted, each);
}

/** A REPORT's objects (not the collection, not a failed href): each href with its data or null. */
function objects(
  url: string,
  found: (object: { href: string; data: string | null }) => unknown,
): (response: DavResponse) => void {
  return (r) => {
    if (r.href === '' || samePath(r.href, url)) return;
    if (r.status !== null && (r.status < 200 || r.status >= 300)) return;
    const data = r.props.get(CALENDAR_DATA)?.text;
    found({ href: r.href, data: data !== undefined && data.trim() !== '' ? data : null });
  };
}

/** Whether an href (a path, or a URL) names the same resource as `url`, a trailing slash aside. */
function samePath(href: string, url: string): boolean {
  try {
    const path = (u: string) => decodeURIComponent(new URL(u, url).pathname).replace(/\/+$/, '');
    return path(href) === path(url);
  } catch {
    return false;
  }
}

/** `20300104T090000Z`: an instant as CalDAV's time-range writes it (RFC 4791 §9.9). */
function icalUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
