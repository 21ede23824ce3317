import {
  CALDAV,
  CALENDARSERVER,
  DAV,
  type DavResponse,
  MultistatusError,
  parseMultistatus,
  qualified,
} from './dav-multistatus';

const RESOURCETYPE = qualified(DAV, 'resourcetype');
const GETCTAG = qualified(CALENDARSERVER, 'getctag');
const CALENDAR_DATA = qualified(CALDAV, 'calendar-data');
const WANTED = new Set([RESOURCETYPE, GETCTAG, CALENDAR_DATA]);

/** `text` in pieces of `size` characters, as a body arrives. */
function* pieces(text: string, size = text.length): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function parse(text: string, size?: number): Promise<DavResponse[]> {
  const responses: DavResponse[] = [];
  await parseMultistatus(pieces(text, size), WANTED, (r) => responses.push(r));
  return responses;
}

const EVENT = 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a&b\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';

/** As Radicale, SabreDAV or iCloud write them: other prefixes, a default namespace, CDATA. */
const ANSWER = `<?xml version="1.0" encoding="utf-8"?>
<multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:CS="http://calendarserver.org/ns/">
  <response>
    <href>/dav/jane/work/</href>
    <propstat>
      <prop>
        <resourcetype><collection/><C:calendar/></resourcetype>
        <CS:getctag>"ctag-1"</CS:getctag>
      </prop>
      <status>HTTP/1.1 200 OK</status>
    </propstat>
    <propstat>
      <prop><C:calendar-data/><displayname/></prop>
      <status>HTTP/1.1 404 Not Found</status>
    </propstat>
  </response>
  <response>
    <href>/dav/jane/work/a.ics</href>
    <propstat>
      <prop><x:calendar-data xmlns:x="urn:ietf:params:xml:ns:caldav"><![CDATA[${EVENT}]]></x:calendar-data></prop>
      <status>HTTP/1.1 200 OK</status>
    </propstat>
  </response>
  <D:response xmlns:D="DAV:">
    <D:href>/dav/jane/work/b.ics</D:href>
    <D:propstat><D:prop><C:calendar-data>${EVENT.replace('&', '&amp;')}</C:calendar-data><D:getetag>"2"</D:getetag></D:prop>
    <D:status>HTTP/1.1 200 OK</D:status></D:propstat>
  </D:response>
  <response><href>/dav/jane/work/gone.ics</href><status>HTTP/1.1 404 Not Found</status></response>
</multistatus>`;

describe('parseMultistatus: a WebDAV multistatus as it streams in (sax)', () => {
  const expected = [
    {
      href: '/dav/jane/work/',
      status: null,
      props: new Map([
        [
          RESOURCETYPE,
          {
            text: expect.any(String),
            children: [qualified(DAV, 'collection'), qualified(CALDAV, 'calendar')],
          },
        ],
        [GETCTAG, { text: '"ctag-1"', children: [] }],
      ]),
    },
    {
      href: '/dav/jane/work/a.ics',
      status: null,
      props: new Map([[CALENDAR_DATA, { text: EVENT, children: [] }]]),
    },
    {
      href: '/dav/jane/work/b.ics',
      status: null,
      props: new Map([[CALENDAR_DATA, { text: EVENT, children: [] }]]),
    },
    { href: '/dav/jane/work/gone.ics', status: 404, props: new Map() },
  ];

  it('keeps the hrefs, statuses and wanted properties of 2xx propstats, by namespace not prefix', async () => {
    await expect(parse(ANSWER)).resolves.toEqual(expected);
  });

  it('hands each response over as it closes, and stops at an error thrown there', async () => {
    const seen: string[] = [];
    await expect(
      parseMultistatus(pieces(ANSWER), WANTED, (r) => {
        seen.push(r.href);
        if (seen.length === 2) throw new Error('enough');
      }),
    ).rejects.toThrow('enough');
    expect(seen).toEqual(['/dav/jane/work/', '/dav/jane/work/a.ics']);
  });

  it('reads the same wherever the pieces are cut', async () => {
    for (const size of [1, 7, 64]) await expect(parse(ANSWER, size)).resolves.toEqual(expected);
  });

  it('keeps a text longer than the parser buffers whole', async () => {
    const long = `BEGIN:VCALENDAR\r\n${'X-FILLER:abcdefghijklmnop\r\n'.repeat(10_000)}END:VCALENDAR\r\n`;
    const answer = `<d:multistatus xmlns:d="DAV:" xmlns:c="${CALDAV}"><d:response><d:href>/x.ics</d:href><d:propstat><d:prop><c:calendar-data>${long}</c:calendar-data></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`;
    const [response] = await parse(answer, 4096);
    expect(response.props.get(CALENDAR_DATA)?.text).toBe(long);
  });

  it.each([
    ['an empty answer', '', 'an empty answer'],
    [
      'an HTML page',
      '<!doctype html><html><body>Sign in</body></html>',
      'a DOCTYPE in a multistatus',
    ],
    ['HTML without a doctype', '<html><body>Sign in</body></html>', 'not a multistatus: {}html'],
    [
      'plain text',
      'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n',
      'not XML: Non-whitespace before first tag.',
    ],
    ['another root', '<d:propfind xmlns:d="DAV:"/>', 'not a multistatus: {DAV:}propfind'],
    ['a cut answer', '<d:multistatus xmlns:d="DAV:"><d:response>', 'not XML: Unclosed root tag'],
    ['an undeclared prefix', '<d:multistatus/>', 'an undeclared prefix: d'],
    [
      'an entity of its own (no expansion)',
      '<!DOCTYPE m [<!ENTITY a "aaaaaaaaaa">]><m xmlns="DAV:">&a;</m>',
      'a DOCTYPE in a multistatus',
    ],
    [
      'an element nested past 32',
      `<d:multistatus xmlns:d="DAV:">${'<d:x>'.repeat(40)}`,
      'nested too deep',
    ],
    [
      'a tag of more than 64 attributes',
      `<d:multistatus xmlns:d="DAV:" ${Array.from({ length: 70 }, (_, i) => `a${i}=""`).join(' ')}/>`,
      'too many attributes',
    ],
  ])('refuses %s', async (_, answer, message) => {
    await expect(parse(answer)).rejects.toThrow(new MultistatusError(message));
  });
});
