import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Connection } from 'mysql2/promise';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { eventually } from '../support/eventually';
import { connect, replicaPair, slaveStatus } from '../support/replica-pair';
import { type TestAccount, createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';

const MONDAY = '2030-06-03';
const HOURS = { monday: [{ start: '09:00', end: '13:00' }] };
const ny = (time: string) => `${MONDAY}T${time}:00-0400`;
const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
/** Read-your-writes window of these tests (the lag bound 1 s, checks every 200 ms). */
const WINDOW_MS = 1500;

/**
 * Read replicas on a real MariaDB replica (issue 27): the run's private primary (binary log on) and
 * its replica following it by GTID (test/support/replica-pair.ts). The API runs on the primary with
 * the replica as DB_REPLICAS. Where a read went is seen in what it answers: a row written on one
 * server only (on the replica directly, or on the primary with its binary log off for the session,
 * so that it does not replicate) shows which server answered.
 */
describe('Read replicas (e2e, a real MariaDB replica)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  let api: ApiClient;
  let primary: Connection;
  let replica: Connection;
  let database: string;
  let replicaRows = 0;

  beforeAll(async () => {
    const pair = await replicaPair();
    const base = testConfig();
    database = base.db.name;
    const config = base.with({
      db: {
        ...base.db,
        port: pair.primary.port,
        migrateOnStart: true,
        replicas: {
          nodes: [pair.replica],
          user: 'root',
          password: '',
          maxLagSeconds: 1,
          checkIntervalMs: 200,
          readYourWritesMs: WINDOW_MS,
        },
      },
      // Which server answered is told by rows written on one server only, behind the service's
      // back: no kept /times answer may hide them (kept answers: kept-answers.e2e-spec.ts).
      availability: { cacheTtlMs: 0 },
    });
    app = await startApi({ config });
    account = await createAccount(app, { timezone: 'America/New_York' });
    api = apiClient(app, account);
    primary = await connect(pair.primary.port);
    replica = await connect(pair.replica.port);
  }, 120_000);

  afterAll(async () => {
    await replica?.query('START SLAVE');
    await Promise.all([primary?.end(), replica?.end()]);
    await app?.close();
  });

  /** A calendar open 09:00-13:00 on Mondays with a one-hour service, replicated, window passed. */
  async function service() {
    const calendar = await createCalendar(api, { timezone: 'America/New_York', hours: HOURS });
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
    });
    await eventually(async () => {
      const [rows] = await replica.query(
        `SELECT id FROM \`${database}\`.appointment_types WHERE id = ?`,
        [type],
      );
      return (rows as unknown[]).length === 1 ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
    return { calendar, type };
  }

  /**
   * An appointment row at `time` on one server only (not replicated). On the replica its id is far
   * above the primary's, so that no replicated row ever collides with it.
   */
  async function busyOn(server: Connection, calendar: number, type: number, time: string) {
    const start = new Date(ny(time));
    const end = new Date(start.getTime() + 3_600_000);
    const id = server === replica ? 4_000_000_000 + ++replicaRows : null;
    if (server === primary) await server.query('SET SESSION sql_log_bin = 0');
    try {
      await server.query(
        `INSERT INTO \`${database}\`.appointments (id, account_id, appointment_type_id,
           calendar_id, starts_at, ends_at, busy_from, busy_until, canceled, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NOW(), NOW())`,
        [id, account.id, type, calendar, start, end, start, end],
      );
    } finally {
      if (server === primary) await server.query('SET SESSION sql_log_bin = 1');
    }
  }

  const times = async (type: number) =>
    (
      (await api.get(`/availability/times?appointmentTypeID=${type}&date=${MONDAY}`)).body as {
        time: string;
      }[]
    ).map((t) => t.time.slice(11, 16));

  async function readiness() {
    const res = await app.inject({ method: 'GET', url: '/health/ready' });
    return { status: res.statusCode, body: res.json<{ details: Record<string, unknown> }>() };
  }

  it('serves availability from the replica, and readiness says the replica serves', async () => {
    const { calendar, type } = await service();
    expect(await times(type)).toEqual(['09:00', '10:00', '11:00', '12:00']);
    await busyOn(replica, calendar, type, '10:00');
    // The row only the replica has: availability read it there.
    expect(await times(type)).toEqual(['09:00', '11:00', '12:00']);
    const ready = await readiness();
    expect(ready.status).toBe(200);
    expect(ready.body.details.replicas).toEqual({
      status: 'up',
      serving: 1,
      readsOn: 'replicas',
      replicas: { 'replica-1': { status: 'serving', lagSeconds: 0 } },
    });
  });

  it("never decides a booking on the replica: its checks read the primary's rows", async () => {
    const { calendar, type } = await service();
    await busyOn(replica, calendar, type, '09:00'); // busy on the replica only
    await busyOn(primary, calendar, type, '11:00'); // busy on the primary only
    expect(await times(type)).toEqual(['10:00', '11:00', '12:00']); // the replica's view
    const book = (time: string) =>
      api.post('/appointments', {
        ...client,
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: ny(time),
      });
    // 09:00 looks taken on the replica, but the primary has it free: booked.
    expect((await book('09:00')).status).toBe(200);
    // 11:00 looks free on the replica, but the primary has it taken: refused.
    const refused = await book('11:00');
    expect({ status: refused.status, body: refused.body }).toEqual(
      apiError(400, 'not_available', `The time "${ny('11:00')}" is not an available time slot.`),
    );
  });

  it("counts a resource's uses on the replica for availability, and on the primary for a booking", async () => {
    // Two calendars share one room: a use on the other calendar's type is what takes our time.
    const room = await api.post('/resources', { name: 'Room', quantity: 1 });
    expect(room.status).toBe(200);
    const resourceIDs = [(room.body as { id: number }).id];
    const { type } = await service();
    const other = await createCalendar(api, { timezone: 'America/New_York', hours: HOURS });
    const otherType = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [other],
      resourceIDs,
      maxDaysInAdvance: 3650,
    });
    expect((await api.put(`/appointment-types/${type}`, { resourceIDs })).status).toBe(200);
    await eventually(async () => {
      const [rows] = await replica.query(
        `SELECT appointment_type_id FROM \`${database}\`.appointment_type_resources
          WHERE appointment_type_id IN (?)`,
        [[type, otherType]],
      );
      return (rows as unknown[]).length === 2 ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
    await busyOn(replica, other, otherType, '09:00'); // the room taken on the replica only
    await busyOn(primary, other, otherType, '11:00'); // the room taken on the primary only
    expect(await times(type)).toEqual(['10:00', '11:00', '12:00']); // the replica's view
    const book = (time: string) =>
      api.post('/appointments', { ...client, appointmentTypeID: type, datetime: ny(time) });
    expect((await book('09:00')).status).toBe(200);
    const refused = await book('11:00');
    expect({ status: refused.status, body: refused.body }).toEqual(
      apiError(400, 'no_available_calendar', 'We could not find an available calendar.'),
    );
  });

  it("reads the account's own writes on the primary for the window, then the replica again", async () => {
    const { calendar, type } = await service();
    await busyOn(replica, calendar, type, '12:00'); // tells the replica's answers apart
    expect(await times(type)).toEqual(['09:00', '10:00', '11:00']);
    for (const time of ['09:00', '10:00', '11:00']) {
      const booked = await api.post('/appointments', {
        ...client,
        appointmentTypeID: type,
        datetime: ny(time),
      });
      expect(booked.status).toBe(200);
      // At once after the write: the primary answers (12:00 free there), and has the booking.
      const after = await times(type);
      expect(after).not.toContain(time);
      expect(after).toContain('12:00');
    }
    // Past the window, the replica (caught up meanwhile) answers again.
    await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
    expect(await times(type)).toEqual([]);
  });

  it('skips a replica whose replication stopped, and readiness says so; takes it back after', async () => {
    const { calendar, type } = await service();
    await busyOn(replica, calendar, type, '09:00');
    expect(await times(type)).toEqual(['10:00', '11:00', '12:00']);
    await replica.query('STOP SLAVE');
    try {
      const ready = await eventually(async () => {
        const r = await readiness();
        const states = r.body.details.replicas as { readsOn: string };
        return states.readsOn === 'primary' ? r : undefined;
      });
      expect(ready.status).toBe(200);
      expect(ready.body.details.replicas).toEqual({
        status: 'up',
        serving: 0,
        readsOn: 'primary',
        replicas: {
          // Its place in DB_REPLICAS, not its address, nor the server's words: /health/ready is public.
          'replica-1': { status: 'stopped', lagSeconds: null },
        },
      });
      // The primary answers: 09:00 is free there.
      expect(await times(type)).toEqual(['09:00', '10:00', '11:00', '12:00']);
    } finally {
      await replica.query('START SLAVE');
    }
    expect((await slaveStatus(replica)).Slave_SQL_Running).toBe('Yes');
    await eventually(async () => ((await times(type)).length === 3 ? true : undefined));
  });

  it("refuses another account's type on the replica as on the primary (403)", async () => {
    const { type } = await service();
    const other = apiClient(app, await createAccount(app));
    await new Promise((r) => setTimeout(r, WINDOW_MS + 100));
    const res = await other.get(`/availability/times?appointmentTypeID=${type}&date=${MONDAY}`);
    expect({ status: res.status, body: res.body }).toEqual(apiError(403, 'forbidden', 'Forbidden'));
  });
});
