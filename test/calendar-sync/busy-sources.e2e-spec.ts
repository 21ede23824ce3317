import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { UnitOfWork } from '../../src/common/database/unit-of-work';
import type { AppConfig } from '../../src/config/app-config';
import { BusySourceRepository } from '../../src/modules/calendar-sync/busy-source.repository';
import { BusySourceSync } from '../../src/modules/calendar-sync/busy-source-sync';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { Radicale, basic } from '../support/radicale';
import { createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { NY, scenario, utc, vcalendar, vevent } from './calendar-data';
import { IcsServer } from './ics-server';

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ start: '08:00', end: '18:00' }],
  ]),
);
/** The starts an empty day offers: 08:00 to 17:00, every hour. */
const ALL_HOURS = Array.from({ length: 10 }, (_, i) => 8 + i);
const USER = 'dr-smith';
const PASSWORD = 'app-password-1';

/**
 * Busy time in, end to end: a real CalDAV server (Radicale, started by the test) and a local HTTP
 * server of .ics files; the API (in-process) manages the sources, and BusySourceSync (the worker's
 * sync, driven directly so that the test decides when a source is read) stores their busy time.
 * Availability and booking then see it, exactly.
 */
describe('Calendar sync: busy time from the staff calendars (e2e, Radicale)', () => {
  let app: NestFastifyApplication;
  let config: AppConfig;
  let sync: BusySourceSync;
  let radicale: Radicale;
  let ics: IcsServer;
  let api: ApiClient;
  let calendar: number;
  let type: number;
  let collection: string;
  let feedSource: number;
  let caldavSource: number;
  const s = scenario();

  beforeAll(async () => {
    radicale = await Radicale.start({ [USER]: PASSWORD });
    ics = await IcsServer.start();
    config = testConfig();
    app = await startApi({ config });
    sync = new BusySourceSync(
      app.get(BusySourceRepository),
      app.get(Secrets),
      config,
      app.get(UnitOfWork),
    );
    const account = await createAccount(app);
    api = apiClient(app, account);
    calendar = await createCalendar(api, { name: 'Dr. Smith', timezone: NY, hours: EVERY_DAY });
    type = await createAppointmentType(api, {
      name: 'Consultation',
      duration: 60,
      calendarIDs: [calendar],
      maxDaysInAdvance: 365,
    });
    ics.files.set('/smith.ics', { body: s.feed });
    collection = await radicale.calendar(USER, PASSWORD, 'personal');
    await radicale.put(collection, USER, PASSWORD, 'ny-dst.ics', s.nySeries);
    await radicale.put(collection, USER, PASSWORD, 'london-dst.ics', s.londonSeries);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await radicale?.stop();
    await ics?.close();
  });

  async function hoursOffered(date: string): Promise<number[]> {
    const res = await api.get(
      `/availability/times?appointmentTypeID=${type}&calendarID=${calendar}&date=${date}`,
    );
    expect(res.status).toBe(200);
    return (res.body as { time: string }[]).map(({ time }) => Number(time.slice(11, 13)));
  }

  function expectedHours(date: string): number[] {
    const busy = s.busy.get(date) ?? new Set<number>();
    return ALL_HOURS.filter((h) => !busy.has(h));
  }

  async function source(id: number) {
    const res = await api.get(`/calendars/${calendar}/busy-sources/${id}`);
    expect(res.status).toBe(200);
    return res.body as { status: Record<string, unknown> };
  }

  it('adds an .ics feed and a CalDAV calendar, pending until read, the password never shown', async () => {
    const feed = await api.post(`/calendars/${calendar}/busy-sources`, {
      type: 'ics',
      url: `${ics.url}/smith.ics`,
    });
    const caldav = await api.post(`/calendars/${calendar}/busy-sources`, {
      type: 'caldav',
      url: collection,
      username: USER,
      password: PASSWORD,
    });
    const pending = {
      state: 'pending',
      lastSyncAt: null,
      lastSuccessAt: null,
      eventsRead: 0,
      lastError: null,
    };
    expect(feed).toMatchObject({ status: 200 });
    expect(feed.body).toEqual({
      id: expect.any(Number),
      calendarID: calendar,
      type: 'ics',
      url: `${ics.url}/smith.ics`,
      username: '',
      hasPassword: false,
      status: pending,
    });
    expect(caldav.body).toEqual({
      id: expect.any(Number),
      calendarID: calendar,
      type: 'caldav',
      url: collection,
      username: USER,
      hasPassword: true,
      status: pending,
    });
    feedSource = feed.body.id;
    caldavSource = caldav.body.id;
    const listed = await api.get(`/calendars/${calendar}/busy-sources`);
    expect(listed.body).toEqual([feed.body, caldav.body]);
    expect(JSON.stringify(listed.body)).not.toContain(PASSWORD);
    const [row] = await app
      .get(DataSource)
      .query('SELECT sealed_password FROM busy_sources WHERE id = ?', [caldavSource]);
    expect(row.sealed_password).toMatch(/^v1\./);
    expect(row.sealed_password).not.toContain(PASSWORD);
  });

  it('reads both: the events of the window, free and cancelled ones left out', async () => {
    await expect(sync.sync(feedSource)).resolves.toEqual({ kind: 'read', events: 5 });
    await expect(sync.sync(caldavSource)).resolves.toEqual({ kind: 'read', events: 8 });
    for (const id of [feedSource, caldavSource])
      expect((await source(id)).status).toEqual({
        state: 'ok',
        lastSyncAt: expect.any(String),
        lastSuccessAt: expect.any(String),
        eventsRead: id === feedSource ? 5 : 8,
        lastError: null,
      });
  });

  it('availability shows exactly the gaps the events leave (series, overrides, all-day, DST)', async () => {
    for (const date of s.dates)
      expect({ date, hours: await hoursOffered(date) }).toEqual({
        date,
        hours: expectedHours(date),
      });
  });

  it('refuses a booking on external busy time with not_available, and takes a freed one', async () => {
    const book = (at: DateTime) =>
      api.post('/appointments', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.test',
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: at.toISO({ suppressMilliseconds: true }),
      });
    for (const busy of [s.w(0, 9), s.w(2, 12), s.nyT.set({ hour: 10 }), s.w(14, 13)]) {
      const datetime = busy.toISO({ suppressMilliseconds: true })!;
      await expect(book(busy)).resolves.toMatchObject(
        apiError(400, 'not_available', `The time "${datetime}" is not an available time slot.`),
      );
    }
    // The excluded occurrence and the moved one's original time are free.
    await expect(book(s.w(7, 9))).resolves.toMatchObject({ status: 200 });
    await expect(book(s.w(14, 9))).resolves.toMatchObject({ status: 200 });
  });

  it('skips what has not changed (ETag, ctag), and reads what has', async () => {
    const notModified = ics.count('/smith.ics', 304);
    await expect(sync.sync(feedSource)).resolves.toEqual({ kind: 'unchanged' });
    expect(ics.count('/smith.ics', 304)).toBe(notModified + 1);
    await expect(sync.sync(caldavSource)).resolves.toEqual({ kind: 'unchanged' });

    // A new event on the CalDAV calendar changes its ctag: read again.
    const lunch = s.w(3, 12);
    const lunchEvent = vevent([
      'UID:lunch@test',
      `DTSTART:${utc(lunch)}`,
      `DTEND:${utc(lunch.plus({ hours: 1 }))}`,
    ]);
    await radicale.put(collection, USER, PASSWORD, 'lunch.ics', vcalendar([lunchEvent]));
    await expect(sync.sync(caldavSource)).resolves.toEqual({ kind: 'read', events: 9 });
    expect(await hoursOffered(s.w(3).toISODate()!)).not.toContain(12);
  });

  it('keeps the last good busy time of a failing source, and says why', async () => {
    ics.files.set('/smith.ics', { body: s.feed, status: 500 });
    const failing = 'The calendar server answered with an error (HTTP 500).';
    await expect(sync.sync(feedSource)).resolves.toEqual({ kind: 'failed', error: failing });
    expect((await source(feedSource)).status).toEqual({
      state: 'error',
      lastSyncAt: expect.any(String),
      lastSuccessAt: expect.any(String),
      eventsRead: 5,
      lastError: failing,
    });
    expect(await hoursOffered(s.w(0).toISODate()!)).toEqual(expectedHours(s.w(0).toISODate()!));

    // Wrong credentials on the CalDAV side fail too (and still keep what it read).
    await app
      .get(DataSource)
      .query('UPDATE busy_sources SET username = ? WHERE id = ?', ['someone-else', caldavSource]);
    await expect(sync.sync(caldavSource)).resolves.toEqual({
      kind: 'failed',
      error: 'The calendar server refused the request (HTTP 401).',
    });
    expect(await hoursOffered(s.nyT.toISODate()!)).toEqual(expectedHours(s.nyT.toISODate()!));
    await app
      .get(DataSource)
      .query('UPDATE busy_sources SET username = ? WHERE id = ?', [USER, caldavSource]);

    // Back, with the weekly series gone: Monday's 09:00 is free again.
    const withoutSeries = s.feed.replace(
      /BEGIN:VEVENT\r\nDTSTAMP:[^\r]*\r\nUID:weekly@test[\s\S]*?END:VEVENT\r\n/g,
      '',
    );
    ics.files.set('/smith.ics', { body: withoutSeries });
    await expect(sync.sync(feedSource)).resolves.toEqual({ kind: 'read', events: 2 });
    expect(await hoursOffered(s.w(0).toISODate()!)).toEqual(ALL_HOURS);
    expect((await source(feedSource)).status).toMatchObject({ state: 'ok', lastError: null });
  });

  it('sends the credentials to the feed host, and the worker pass syncs what is due', async () => {
    ics.files.set('/private.ics', { body: s.feed, credentials: basic('me', 'pw').authorization });
    const created = await api.post(`/calendars/${calendar}/busy-sources`, {
      type: 'ics',
      url: `${ics.url}/private.ics`,
      username: 'me',
      password: 'pw',
    });
    expect(created.status).toBe(200);
    // Due at once: a pass claims it (and any other test's due source) and reads it.
    await sync.syncDue();
    await sync.settled();
    expect((await source(created.body.id)).status).toMatchObject({ state: 'ok', eventsRead: 5 });
    const [{ next }] = await app
      .get(DataSource)
      .query('SELECT next_sync_at AS next FROM busy_sources WHERE id = ?', [created.body.id]);
    // The account's interval: 5 minutes by default.
    expect(new Date(next).getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
  });

  it('deletes a source and the busy time it brought', async () => {
    const sources = (await api.get(`/calendars/${calendar}/busy-sources`)).body as { id: number }[];
    for (const { id } of sources)
      expect((await api.delete(`/calendars/${calendar}/busy-sources/${id}`)).status).toBe(204);
    await expect(
      api.get(`/calendars/${calendar}/busy-sources/${caldavSource}`),
    ).resolves.toMatchObject(apiError(404, 'not_found', 'Not Found'));
    expect(await hoursOffered(s.nyT.toISODate()!)).toEqual(ALL_HOURS);
    const [{ n }] = await app
      .get(DataSource)
      .query('SELECT COUNT(*) AS n FROM external_busy_spans WHERE calendar_id = ?', [calendar]);
    expect(Number(n)).toBe(0);
  });
});
