import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { UnitOfWork } from '../../src/common/database/unit-of-work';
import { createRootLogger } from '../../src/common/logging/logging.module';
import type { AppConfig } from '../../src/config/app-config';
import { BusySourceRepository } from '../../src/modules/calendar-sync/busy-source.repository';
import { BusySourceSync } from '../../src/modules/calendar-sync/busy-source-sync';
import { type ApiClient, apiClient } from '../support/api-client';
import { createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { utc, vcalendar, vevent } from './calendar-data';
import { type Collection, CaldavServer } from './caldav-server';
import { IcsServer } from './ics-server';

/** What no `lastError` may show: an address (IPv4, IPv6), a resolver's words or codes. */
const LEAKS = /\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f]*:|resolv|ENOTFOUND|EAI_|ECONN|localhost/i;

const TOMORROW = DateTime.utc().plus({ days: 1 }).startOf('hour');
const event = (uid: string, hoursFromTomorrow: number, rrule?: string) =>
  vcalendar([
    vevent([
      `UID:${uid}`,
      `DTSTART:${utc(TOMORROW.plus({ hours: hoursFromTomorrow }))}`,
      'DURATION:PT1H',
      ...(rrule ? [`RRULE:${rrule}`] : []),
    ]),
  ]);

/**
 * What a source's owner reads when its sync fails, whatever a hostile or broken server does: one of
 * a few sentences (docs/calendar-sync.md), never an address or a resolver's text (those go to the
 * worker's log), and the busy time of the last good read still counts, untouched. The sync is
 * driven directly (BusySourceSync, as the worker runs it) against servers of the test's own: a
 * hand-written CalDAV server that misbehaves as told, and a server of .ics files.
 */
describe('Calendar sync: what a failing sync tells the owner (e2e)', () => {
  let app: NestFastifyApplication;
  let config: AppConfig;
  let caldav: CaldavServer;
  let ics: IcsServer;
  let api: ApiClient;
  let calendar: number;
  const logged: Record<string, unknown>[] = [];

  beforeAll(async () => {
    caldav = await CaldavServer.start();
    ics = await IcsServer.start();
    const base = testConfig();
    config = base.with({
      calendarSync: { ...base.calendarSync, maxBytes: 64 * 1024, maxEvents: 5, maxOccurrences: 8 },
    });
    app = await startApi({ config });
    api = apiClient(app, await createAccount(app));
    calendar = await createCalendar(api);
  });

  afterAll(async () => {
    await app?.close();
    await caldav?.close();
    await ics?.close();
  });

  /** The worker's sync under `rules`, logging to `logged`. */
  function syncer(rules: AppConfig = config): BusySourceSync {
    const logger = createRootLogger('info', 'worker', {
      write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>),
    });
    return new BusySourceSync(
      app.get(BusySourceRepository),
      app.get(Secrets),
      rules,
      app.get(UnitOfWork),
      undefined,
      logger,
    );
  }

  async function add(type: 'ics' | 'caldav', url: string): Promise<number> {
    const res = await api.post(`/calendars/${calendar}/busy-sources`, { type, url });
    expect(res.status).toBe(200);
    return res.body.id as number;
  }

  const status = async (id: number) =>
    (await api.get(`/calendars/${calendar}/busy-sources/${id}`)).body.status as Record<
      string,
      unknown
    >;

  const spans = (id: number) =>
    app
      .get(DataSource)
      .query(
        'SELECT starts_at, ends_at FROM external_busy_spans WHERE source_id = ? ORDER BY starts_at',
        [id],
      );

  /** Syncs `id`, which must fail with `message`: said over the API, the last good busy time kept. */
  async function expectFailure(id: number, message: string, rules?: AppConfig) {
    const before = { status: await status(id), spans: await spans(id) };
    await expect(syncer(rules).sync(id)).resolves.toEqual({ kind: 'failed', error: message });
    expect(await status(id)).toEqual({
      ...before.status,
      state: 'error',
      lastSyncAt: expect.any(String),
      lastError: message,
    });
    expect(message).not.toMatch(LEAKS);
    expect(await spans(id)).toEqual(before.spans);
  }

  describe('a CalDAV calendar', () => {
    let source: number;
    const path = '/dav/jane/work/';
    const good: Collection = {
      kind: 'calendar',
      ctag: 'v1',
      objects: [event('a', 9), event('b', 11)],
    };

    beforeAll(async () => {
      caldav.collections.set(path, good);
      source = await add('caldav', caldav.url(path));
      await expect(syncer().sync(source)).resolves.toEqual({ kind: 'read', events: 2 });
      expect(await spans(source)).toHaveLength(2);
    });

    it.each<[string, Collection, string]>([
      [
        'refuses the credentials',
        { kind: 'status', status: 401 },
        'The calendar server refused the request (HTTP 401).',
      ],
      [
        'is not there',
        { kind: 'status', status: 404 },
        'The calendar server refused the request (HTTP 404).',
      ],
      [
        'fails',
        { kind: 'status', status: 503 },
        'The calendar server answered with an error (HTTP 503).',
      ],
      ['answers a sign-in page', { kind: 'page' }, 'The address is not a calendar.'],
      ['is a folder, not a calendar', { kind: 'folder' }, 'The address is not a calendar.'],
      ['redirects', { kind: 'status', status: 301 }, 'The address is not a calendar.'],
      [
        'sends more than CALENDAR_SYNC_MAX_BYTES (64 KiB here), streamed',
        { kind: 'huge', method: 'REPORT', bytes: 1024 * 1024 },
        'The calendar is too large.',
      ],
      [
        'answers the PROPFIND with more than CALENDAR_SYNC_MAX_BYTES',
        { kind: 'huge', method: 'PROPFIND', bytes: 1024 * 1024 },
        'The calendar is too large.',
      ],
      [
        'holds more than CALENDAR_SYNC_MAX_EVENTS (5 here)',
        { kind: 'calendar', ctag: 'v2', objects: [0, 1, 2, 3, 4, 5].map((h) => event(`e${h}`, h)) },
        'The calendar has too many events.',
      ],
      [
        'has more than CALENDAR_SYNC_MAX_OCCURRENCES (8 here) in the window',
        { kind: 'calendar', ctag: 'v3', objects: [event('daily', 0, 'FREQ=DAILY;COUNT=9')] },
        'The calendar has too many events.',
      ],
    ])('when the server %s', async (_, collection, message) => {
      caldav.collections.set(path, collection);
      await expectFailure(source, message);
    });

    it('when the server never answers, within CALENDAR_SYNC_TIMEOUT_MS', async () => {
      caldav.collections.set(path, { kind: 'silent' });
      const quick = config.with({ calendarSync: { ...config.calendarSync, timeoutMs: 300 } });
      await expectFailure(source, 'The calendar server took too long to answer.', quick);
    });

    it('reads objects a server lists without their data by a calendar-multiget, and is ok again', async () => {
      caldav.collections.set(path, { ...good, ctag: 'v4', withData: false });
      const asked = caldav.requests.length;
      await expect(syncer().sync(source)).resolves.toEqual({ kind: 'read', events: 2 });
      expect(
        caldav.requests.slice(asked).map((r) => [r.method, /calendar-multiget/.test(r.body)]),
      ).toEqual([
        ['PROPFIND', false],
        ['REPORT', false],
        ['REPORT', true],
      ]);
      expect(await status(source)).toMatchObject({ state: 'ok', lastError: null, eventsRead: 2 });
    });
  });

  describe('an iCalendar feed', () => {
    let source: number;

    beforeAll(async () => {
      ics.files.set('/jane.ics', { body: event('a', 9) });
      source = await add('ics', `${ics.url}/jane.ics`);
      await expect(syncer().sync(source)).resolves.toEqual({ kind: 'read', events: 1 });
    });

    it.each<[string, { body: string; status?: number }, string]>([
      ['is gone', { body: '', status: 404 }, 'The calendar server refused the request (HTTP 404).'],
      [
        'is a web page',
        { body: '<html><body>Moved</body></html>' },
        'The address is not a calendar.',
      ],
      [
        'is larger than CALENDAR_SYNC_MAX_BYTES',
        { body: vcalendar([vevent(['UID:x', `DESCRIPTION:${'x'.repeat(70_000)}`])]) },
        'The calendar is too large.',
      ],
    ])('when the feed %s', async (_, file, message) => {
      ics.files.set('/jane.ics', file);
      await expectFailure(source, message);
    });

    it('when nothing listens at its address: the detail goes to the log only', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as { port: number };
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      await app
        .get(DataSource)
        .query('UPDATE busy_sources SET url = ? WHERE id = ?', [
          `http://127.0.0.1:${port}/jane.ics`,
          source,
        ]);
      await expectFailure(source, 'The calendar server could not be reached.');
      expect(logged.filter((l) => l.sourceId === source).pop()).toMatchObject({
        level: 40,
        msg: 'calendar sync failed',
        type: 'ics',
        detail: 'fetch failed (ECONNREFUSED)',
      });
    });

    it('when its host name points inside and private sources are off', async () => {
      const strict = config.with({
        calendarSync: { ...config.calendarSync, allowPrivateTargets: false, extraPorts: 'any' },
      });
      // `vm` is this machine's own name (/etc/hosts): 127.0.0.1.
      await app
        .get(DataSource)
        .query('UPDATE busy_sources SET url = ? WHERE id = ?', [
          `${ics.url.replace('127.0.0.1', 'vm')}/jane.ics`,
          source,
        ]);
      await expectFailure(source, 'The calendar address is not allowed.', strict);
      expect(logged.filter((l) => l.sourceId === source).pop()).toMatchObject({
        detail: 'address 127.0.0.1 is not public',
      });
    });
  });
});
