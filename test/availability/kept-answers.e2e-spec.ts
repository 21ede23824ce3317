import { QueryBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AccountEpochs } from '../../src/common/database/account-epochs';
import { ROOT_LOGGER } from '../../src/common/logging/logging.module';
import { Account } from '../../src/modules/accounts';
import { AvailableDatesWithTimesQuery, AvailableTimesQuery } from '../../src/modules/availability';
import type { AvailableTimesRequest } from '../../src/modules/availability/availability.requests';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { freePort } from '../support/redis-server';
import { createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';

const NY = 'America/New_York';
const hoursFrom = (start: string) =>
  Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      [{ start, end: '18:00' }],
    ]),
  );

/**
 * `/availability/times` answers kept per process (issue 29: AvailabilityAnswers, AccountEpochs):
 * served again only while no write for the account happened on any process, never past the
 * instant the clock alone would change them, and never for another account. The data is changed
 * behind the service's back (SQL on the calendar's hours, which bumps nothing) to tell a kept
 * answer from a fresh one.
 */
describe('Availability: kept /times answers (e2e, two API processes, Redis)', () => {
  let a: NestFastifyApplication;
  let b: NestFastifyApplication;
  let db: DataSource;
  let apiA: ApiClient;
  let apiB: ApiClient;
  let accountId: number;
  // Four days ahead: within the default advance window, past any notice.
  const date = DateTime.now().setZone(NY).startOf('day').plus({ days: 4 });
  const day = date.toISODate()!;
  const first = (res: { body: unknown }) => (res.body as { time: string }[])[0]?.time.slice(11, 16);

  beforeAll(async () => {
    a = await startApi({ config: testConfig() });
    b = await startApi({ config: testConfig() });
    db = a.get(DataSource);
    const account = await createAccount(a, { timezone: NY });
    accountId = account.id;
    apiA = apiClient(a, account);
    apiB = apiClient(b, account);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  async function shop(type: Record<string, unknown> = {}) {
    const calendar = await createCalendar(apiA, { timezone: NY, hours: hoursFrom('08:00') });
    const typeId = await createAppointmentType(apiA, {
      duration: 60,
      calendarIDs: [calendar],
      ...type,
    });
    return {
      calendar,
      type: typeId,
      url: `/availability/times?appointmentTypeID=${typeId}&date=${day}`,
    };
  }

  /** The calendar's hours from 10:00, written behind the service's back (no epoch bump). */
  const openLater = (calendar: number) =>
    db.query('UPDATE calendars SET hours = ? WHERE id = ?', [
      JSON.stringify(hoursFrom('10:00')),
      calendar,
    ]);

  it('serves the kept answer until a write for the account, on any process', async () => {
    const s = await shop();
    expect(first(await apiB.get(s.url))).toBe('08:00');
    await openLater(s.calendar);
    // B kept its answer; A had none, and reads the data as it is.
    expect(first(await apiB.get(s.url))).toBe('08:00');
    expect(first(await apiA.get(s.url))).toBe('10:00');
    // Any write for the account, on A: B's kept answer is stale.
    expect((await apiA.put('/settings', { clientChangeMinHours: 1 })).status).toBe(200);
    expect(first(await apiB.get(s.url))).toBe('10:00');
  });

  it("keeps nothing a hold's expiry may change: calendars that had a slot hold, booking limits", async () => {
    const cases: [
      string,
      Record<string, unknown>,
      (s: { calendar: number; type: number }) => Promise<void>,
    ][] = [
      [
        'a calendar that had a slot hold',
        {},
        async (s) => {
          const held = await apiA.post('/slot-holds', {
            appointmentTypeID: s.type,
            calendarID: s.calendar,
            datetime: date.set({ hour: 16 }).toFormat("yyyy-MM-dd'T'HH:mm"),
          });
          expect(held.status).toBe(200);
        },
      ],
      ['a type with booking limits', { maxPerDay: 5 }, () => Promise.resolve()],
    ];
    for (const [name, type, setUp] of cases) {
      const s = await shop(type);
      await setUp(s);
      expect({ name, first: first(await apiB.get(s.url)) }).toEqual({ name, first: '08:00' });
      await openLater(s.calendar);
      expect({ name, first: first(await apiB.get(s.url)) }).toEqual({ name, first: '10:00' });
    }
  });

  it('serves a kept answer up to the instant its first time comes within the notice, not after', async () => {
    const s = await shop({ minHoursInAdvance: 2 });
    const queries = b.get(QueryBus);
    const account = await db.getRepository(Account).findOneByOrFail({ id: accountId });
    const query = { appointmentTypeID: s.type, date: day } as AvailableTimesRequest;
    const firstAt = async (now: number) =>
      (await queries.execute(new AvailableTimesQuery(account, query, now)))[0]?.time;
    const eight = date.set({ hour: 8 }).toMillis();
    const lastValid = eight - 2 * 3_600_000;

    // Computed half a minute before its first time comes within the two hours' notice.
    expect(await firstAt(lastValid - 30_000)).toBe(`${day}T08:00:00${offset(8)}`);
    await openLater(s.calendar);
    expect(await firstAt(lastValid)).toBe(`${day}T08:00:00${offset(8)}`);
    expect(await firstAt(lastValid + 1)).toBe(`${day}T10:00:00${offset(10)}`);
  });

  it("keeps the date step's month and day by the same rule: until a write, the month's first time within the notice, or a month the advance does not cover", async () => {
    // A month well ahead, asked on its 5th at midnight: its first time is the 5th at 08:00.
    const month = date.plus({ months: 3 }).startOf('month');
    const asOf = month.set({ day: 5 }).toMillis();
    const account = await db.getRepository(Account).findOneByOrFail({ id: accountId });
    const step = async (on: NestFastifyApplication, type: number, now: number) => {
      const query = new AvailableDatesWithTimesQuery(
        account,
        {
          appointmentTypeID: type,
          timezone: NY,
          addonIDs: [],
          month: month.toFormat('yyyy-MM'),
          date: month.set({ day: 10 }).toISODate()!,
        },
        now,
      );
      const { dates, times } = await on.get(QueryBus).execute(query);
      return { dates: dates.length, first: times[0]?.time.slice(11, 16) };
    };
    const closeAll = (calendar: number) =>
      db.query('UPDATE calendars SET hours = ? WHERE id = ?', ['{}', calendar]);
    const daysLeft = month.daysInMonth! - 4;

    const s = await shop({ minHoursInAdvance: 2 });
    expect(await step(b, s.type, asOf)).toEqual({ dates: daysLeft, first: '08:00' });
    await closeAll(s.calendar);
    // B kept its answer; A reads the data as it is; a write on A ends B's.
    expect(await step(b, s.type, asOf)).toEqual({ dates: daysLeft, first: '08:00' });
    expect(await step(a, s.type, asOf)).toEqual({ dates: 0, first: undefined });
    expect((await apiA.put('/settings', { clientChangeMinHours: 1 })).status).toBe(200);
    expect(await step(b, s.type, asOf)).toEqual({ dates: 0, first: undefined });

    // Kept until the month's first time (the 5th at 08:00) is less than the two hours' notice away.
    const t = await shop({ minHoursInAdvance: 2 });
    const lastValid = month.set({ day: 5, hour: 6 }).toMillis();
    expect(await step(b, t.type, lastValid - 30_000)).toEqual({ dates: daysLeft, first: '08:00' });
    await closeAll(t.calendar);
    expect(await step(b, t.type, lastValid)).toEqual({ dates: daysLeft, first: '08:00' });
    expect(await step(b, t.type, lastValid + 1)).toEqual({ dates: 0, first: undefined });

    // Six days of advance cover the 10th and not the month's end: the clock adds dates, kept none.
    const u = await shop({ maxDaysInAdvance: 6 });
    expect(await step(b, u.type, asOf)).toEqual({ dates: 6, first: '08:00' });
    await closeAll(u.calendar);
    expect(await step(b, u.type, asOf)).toEqual({ dates: 0, first: undefined });
  });

  it("answers another account's question about this account's type with 403, kept answer or not", async () => {
    const s = await shop();
    expect((await apiB.get(s.url)).status).toBe(200);
    const other = apiClient(b, await createAccount(b, { timezone: NY }));
    await expect(other.get(s.url)).resolves.toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
  });

  it('answers hostile dates and zones with their 400s, and keeps nothing for them', async () => {
    const s = await shop();
    const base = `/availability/times?appointmentTypeID=${s.type}`;
    const [date, zone] = [`${day}","x`, '"],[1'];
    // Twice: the second time would be a kept answer's, were one kept.
    for (let i = 0; i < 2; i++) {
      await expect(apiB.get(`${base}&date=${encodeURIComponent(date)}`)).resolves.toMatchObject(
        apiError(400, 'invalid_date', `The date "${date}" is invalid.`),
      );
      await expect(
        apiB.get(`${base}&date=${day}&timezone=${encodeURIComponent(zone)}`),
      ).resolves.toMatchObject(apiError(400, 'invalid_timezone', `Invalid timezone "${zone}".`));
    }
  });

  it('without Redis: no token, nothing kept, a bump that cannot be made is logged, never thrown', async () => {
    const closed = await freePort(); // nothing listens there
    const config = testConfig();
    const epochs = new AccountEpochs(
      config.with({ redis: { ...config.redis, port: closed } }),
      a.get<Logger>(ROOT_LOGGER),
    );
    try {
      await expect(epochs.current(accountId)).resolves.toBeUndefined();
      await expect(epochs.bump(accountId)).resolves.toBeUndefined();
    } finally {
      epochs.onApplicationShutdown();
    }
  });

  /** The UTC offset of `date` at `hour` in New York, as the API writes it (`-0500`). */
  function offset(hour: number): string {
    return date.set({ hour }).toFormat('ZZZ');
  }
});
