import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { UnitOfWork } from '../../src/common/database/unit-of-work';
import { BusySourceRepository } from '../../src/modules/calendar-sync/busy-source.repository';
import { BusySourceSync } from '../../src/modules/calendar-sync/busy-source-sync';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { IcsServer } from './ics-server';

const PRIVATE = 'Attribute "url" must not point to a private, loopback or reserved address';

/**
 * Hostile input and isolation of the busy sources and the feed, on an API with the production
 * outbound rules (no private addresses, ports 80 and 443 only).
 */
describe('Calendar sync: hostile input and isolation (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let accountId: number;
  let other: ApiClient;
  let calendar: number;
  let otherCalendar: number;
  let ics: IcsServer;
  const strict = testConfig();
  const config = strict.with({
    calendarSync: { ...strict.calendarSync, allowPrivateTargets: false, extraPorts: [] },
  });

  beforeAll(async () => {
    ics = await IcsServer.start();
    app = await startApi({ config });
    const account = await createAccount(app);
    accountId = account.id;
    api = apiClient(app, account);
    other = apiClient(app, await createAccount(app));
    calendar = await createCalendar(api);
    otherCalendar = await createCalendar(other);
  });

  afterAll(async () => {
    await app?.close();
    await ics?.close();
  });

  const add = (body: unknown, client = api, id = calendar) =>
    client.post(`/calendars/${id}/busy-sources`, body);

  it.each([
    ['http://127.0.0.1/feed.ics', `${PRIVATE} (127.0.0.1).`],
    ['https://localhost/dav/', `${PRIVATE} (localhost).`],
    ['http://169.254.169.254/latest/meta-data', `${PRIVATE} (169.254.169.254).`],
    ['http://[::ffff:10.0.0.1]/x.ics', `${PRIVATE} ([::ffff:a00:1]).`],
    [
      'https://calendar.example.com:5232/dav/',
      'Attribute "url" must use port 443 or 80, not 5232.',
    ],
    ['ftp://calendar.example.com/feed.ics', 'Attribute "url" must be an http or https URL.'],
    ['webcal://calendar.example.com/feed.ics', 'Attribute "url" must be an http or https URL.'],
    [
      'https://me:pw@calendar.example.com/',
      'Attribute "url" must not contain a username or password.',
    ],
    ['not a url', 'Attribute "url" must not contain spaces or control characters.'],
    ['/relative.ics', 'Attribute "url" must be an absolute URL.'],
  ])('refuses the source URL %s', async (url, message) => {
    await expect(add({ type: 'ics', url })).resolves.toMatchObject(
      apiError(400, 'invalid_url', message),
    );
  });

  it.each([
    // This machine's own names (/etc/hosts): 127.0.0.1, as `localhost` is.
    ['http://vm/feed.ics', `${PRIVATE} (vm).`],
    ['https://runsc/dav/calendars/jane/', `${PRIVATE} (runsc).`],
    ['https://VM/dav/', `${PRIVATE} (vm).`],
  ])('resolves a host name at creation: refuses %s, which points inside', async (url, message) => {
    await expect(add({ type: 'caldav', url })).resolves.toMatchObject(
      apiError(400, 'invalid_url', message),
    );
    expect((await api.get(`/calendars/${calendar}/busy-sources`)).body).toEqual([]);
  });

  it('refuses a missing or unknown type, a missing URL, text that is not one line', async () => {
    await expect(add({ url: 'https://calendar.example.com/a.ics' })).resolves.toMatchObject(
      apiError(400, 'required_type', 'The parameter "type" is required.'),
    );
    await expect(
      add({ type: 'webcal', url: 'https://calendar.example.com/a.ics' }),
    ).resolves.toMatchObject(
      apiError(400, 'invalid_type', 'Attribute "type" must be one of ics, caldav.'),
    );
    await expect(add({ type: 'ics' })).resolves.toMatchObject(
      apiError(400, 'required_url', 'The parameter "url" is required.'),
    );
    await expect(add({ type: 'ics', url: 42 })).resolves.toMatchObject(
      apiError(400, 'invalid_url', 'Invalid "url" attribute value.'),
    );
    for (const attribute of ['username', 'password'])
      await expect(
        add({
          type: 'caldav',
          url: 'https://calendar.example.com/dav/',
          [attribute]: 'jane\r\nX-Injected: 1',
        }),
      ).resolves.toMatchObject(
        apiError(400, `invalid_${attribute}`, `Invalid "${attribute}" attribute value.`),
      );
    expect((await api.get(`/calendars/${calendar}/busy-sources`)).body).toEqual([]);
  });

  it("answers 403 for another account's calendar, 404 for a source of another calendar", async () => {
    const created = await add({
      type: 'caldav',
      url: 'https://calendar.example.com/dav/',
      username: 'jane',
      password: 'hunter2-secret',
    });
    expect(created.status).toBe(200);
    expect(JSON.stringify(created.body)).not.toContain('hunter2-secret');
    const id = created.body.id as number;
    const forbidden = apiError(403, 'forbidden', 'Forbidden');
    for (const res of [
      other.get(`/calendars/${calendar}/busy-sources`),
      other.get(`/calendars/${calendar}/busy-sources/${id}`),
      other.delete(`/calendars/${calendar}/busy-sources/${id}`),
      add({ type: 'ics', url: 'https://calendar.example.com/a.ics' }, other),
      other.get(`/calendars/${calendar}/feed`),
      other.post(`/calendars/${calendar}/feed/rotate`),
    ])
      await expect(res).resolves.toMatchObject(forbidden);
    // Its own calendar, someone else's source id: not there.
    await expect(
      other.get(`/calendars/${otherCalendar}/busy-sources/${id}`),
    ).resolves.toMatchObject(apiError(404, 'not_found', 'Not Found'));
    await expect(api.get(`/calendars/999999999/busy-sources`)).resolves.toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    // Still there, untouched.
    expect((await api.get(`/calendars/${calendar}/busy-sources/${id}`)).body).toEqual(created.body);
    const unauthenticated = await app.inject({
      method: 'GET',
      url: `/api/v1/calendars/${calendar}/busy-sources`,
    });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('checks the address again when it syncs: a source stored under looser rules is refused', async () => {
    // Stored as if the rules had allowed it (an operator who since turned private sources off).
    ics.files.set('/feed.ics', { body: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' });
    const now = new Date();
    const inserted: { insertId: number } = await app.get(DataSource).query(
      `INSERT INTO busy_sources (account_id, calendar_id, type, url, next_sync_at, created_at)
         VALUES (?, ?, 'ics', ?, ?, ?)`,
      [accountId, calendar, `${ics.url}/feed.ics`, now, now],
    );
    const id = inserted.insertId;
    const anyPort = config.with({ calendarSync: { ...config.calendarSync, extraPorts: 'any' } });
    // The owner reads the same words whatever the rule; the log has which (see sync-errors).
    const error = 'The calendar address is not allowed.';
    for (const rules of [config, anyPort]) {
      const sync = new BusySourceSync(
        app.get(BusySourceRepository),
        app.get(Secrets),
        rules,
        app.get(UnitOfWork),
      );
      await expect(sync.sync(id)).resolves.toEqual({ kind: 'failed', error });
      expect(
        (await api.get(`/calendars/${calendar}/busy-sources/${id}`)).body.status,
      ).toMatchObject({ state: 'error', lastError: error });
    }
    expect(ics.answered).toEqual([]);
  });

  it('serves a feed only to its exact token', async () => {
    const { url } = (await api.get(`/calendars/${calendar}/feed`)).body as { url: string };
    const path = new URL(url).pathname;
    const token = /\/calendar-feeds\/([0-9a-f]{64})\.ics$/.exec(path)![1];
    for (const guess of [
      `/api/v1/calendar-feeds/${token.slice(0, 63)}${token.endsWith('0') ? '1' : '0'}.ics`,
      `/api/v1/calendar-feeds/${token}`,
      `/api/v1/calendar-feeds/${token.toUpperCase()}.ics`,
      `/api/v1/calendar-feeds/..%2F${token}.ics`,
      `/api/v1/calendar-feeds/${calendar}.ics`,
    ]) {
      const res = await app.inject({ method: 'GET', url: guess });
      expect({ guess, status: res.statusCode, type: res.headers['content-type'] }).toEqual({
        guess,
        status: 404,
        type: expect.stringMatching(/^application\/json/),
      });
      expect(res.json()).toMatchObject({ status_code: 404, error: 'not_found' });
    }
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
  });
});
