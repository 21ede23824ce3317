import { readText } from '../../common/net/bounded-body';
import { pinnedFetch } from '../../common/net/pinned-fetch';
import { readCaldav } from './caldav-reader';
import { SourceHttpError, TooManyRedirectsError } from './source-errors';
import {
  type ReadOptions,
  type SourceRead,
  type SourceToRead,
  USER_AGENT,
  authorization,
} from './source-read';

/** Redirects followed for a feed, each hop checked as the first. */
const MAX_REDIRECTS = 3;

export function readSource(source: SourceToRead, options: ReadOptions): Promise<SourceRead> {
  return source.type === 'ics' ? readFeed(source, options) : readCaldav(source, options);
}

/**
 * An iCalendar feed: a conditional GET (If-None-Match; 304 is unchanged), redirects followed (each
 * target checked again; credentials sent to the first origin only), read within the budget.
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
          'user-agent': USER_AGENT,
          ...(sameOrigin ? authorization(source) : {}),
          ...(options.knownTag ? { 'if-none-match': options.knownTag } : {}),
        },
      });
      const location = response.headers.get('location');
      if (response.status < 200 || response.status >= 300) {
        await response.body?.cancel();
        if (response.status === 304) return { kind: 'unchanged' };
        if (response.status >= 300 && response.status < 400 && location) {
          url = new URL(location, url).href;
          continue;
        }
        throw new SourceHttpError(response.status);
      }
      options.onText(await readText(response, options.budget));
      return { kind: 'read', versionTag: response.headers.get('etag') };
    } finally {
      await http.close();
    }
  }
  throw new TooManyRedirectsError(`more than ${MAX_REDIRECTS} redirects`);
}
