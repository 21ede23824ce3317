/**
 * bench:scale's data-size dimension (issue 27): does the cost stay flat as the data grows? Two
 * databases of their own, each with an API process (built dist/main.js, production settings),
 * filled in bulk alike — 1,000 accounts, 10,000 calendars (10 an account, one appointment type each
 * account) — one with 10,000 appointments and one with 1,000,000 (multi-row INSERTs of 5,000 rows
 * on 2 connections), spread evenly over every calendar from 700 days back to 29 days ahead. The
 * measured account is one of the 1,000, with its share (10, then 1,000 appointments).
 *
 * Measured in the same run, rounds alternating between the two sizes (the machine is shared: its
 * other load then weighs on both alike), a warm-up round first, medians of ROUNDS:
 * `GET /availability/times` (a day among the next 29, where the appointments are) and
 * `GET /availability/dates` (next month), p50 under 8 connections; booking throughput (bench:booking's
 * load: distinct free slots, 30+ days ahead, 20 connections). Targets: p50 at 1M within 1.5× of
 * 10k, bookings/s within 15%.
 */
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { type Connection, type RowDataPacket, createConnection } from 'mysql2/promise';
import {
  DIST,
  type Figure,
  benchApi,
  benchEnv,
  cli,
  createOpenCalendars,
  distinctSlots,
  load,
  median,
  startProcess,
  stopProcess,
} from './lib';

const ACCOUNTS = 1_000;
const CALENDARS_PER_ACCOUNT = 10;
const SIZES = [10_000, 1_000_000];
const CHUNK = 5_000;
const DAYS_BACK = 700;
const DAYS_AHEAD = 29;
const DAY_MS = 86_400_000;
const SLOT_MINUTES = 15;
const ZONE = 'America/New_York';
const PORTS = [3911, 3912];
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Measure {
  timesP50: number;
  datesP50: number;
  bookingsPerSecond: number;
}

export interface DataSizeResult {
  figures: Figure[];
  notes: string[];
  ok: boolean;
}

/** One database of a size, filled, with its API process. */
interface DataSet {
  size: number;
  port: number;
  headers: Record<string, string>;
  typeId: number;
  next: () => string;
  stop: () => Promise<void>;
}

export async function dataSizeDimension(): Promise<DataSizeResult> {
  const generation: string[] = [];
  const sets: DataSet[] = [];
  const measures: Record<number, Measure[]> = {};
  try {
    for (const [n, size] of SIZES.entries()) sets.push(await dataSet(size, PORTS[n], generation));
    await settle();
    // Rounds alternate between the sizes, so that the machine's other load (shared, noisy) weighs
    // on both alike; the first round of each is a warm-up, not counted.
    for (let round = 0; round <= ROUNDS; round++)
      for (const set of sets) {
        const m = await measure(set);
        console.log(
          `data ${set.size} appointments, round ${round || 'warm-up'}: ${describeMeasure(m)}`,
        );
        if (round > 0) (measures[set.size] ??= []).push(m);
      }
  } finally {
    for (const set of sets) await set.stop();
  }
  const small = medianMeasure(measures[SIZES[0]]);
  const large = medianMeasure(measures[SIZES[1]]);
  const figures: Figure[] = [
    {
      label: 'availability/times p50 at 1M appointments',
      value: large.timesP50,
      unit: 'ms',
      baseline: { label: '10k', value: small.timesP50 },
      target: { op: '<=', value: small.timesP50 * 1.5 },
    },
    {
      label: 'availability/dates p50 at 1M appointments',
      value: large.datesP50,
      unit: 'ms',
      baseline: { label: '10k', value: small.datesP50 },
      target: { op: '<=', value: small.datesP50 * 1.5 },
    },
    {
      label: 'bookings/s at 1M appointments',
      value: large.bookingsPerSecond,
      unit: 'bookings/s',
      baseline: { label: '10k', value: small.bookingsPerSecond },
      target: { op: '>=', value: small.bookingsPerSecond * 0.85 },
    },
  ];
  const ok = figures.every((f) =>
    f.target!.op === '<=' ? f.value <= f.target!.value : f.value >= f.target!.value,
  );
  console.log(`\nbench:scale, data size — 1 API; ${ROUNDS} × ${DURATION_S}s per figure and size`);
  console.log(`  generated: ${generation.join('; ')}`);
  console.log(`  10k appointments (median): ${describeMeasure(small)}`);
  console.log(`  1M appointments (median):  ${describeMeasure(large)}`);
  console.log(
    `  1M / 10k: times p50 ${ratio(large.timesP50, small.timesP50)}× (≤ 1.5), dates p50 ` +
      `${ratio(large.datesP50, small.datesP50)}× (≤ 1.5), bookings/s ` +
      `${ratio(large.bookingsPerSecond, small.bookingsPerSecond)}× (≥ 0.85)`,
  );
  return { figures, notes: [`data generation: ${generation.join('; ')}`], ok };
}

/** A database of its own with `size` appointments, and an API process on it. */
async function dataSet(size: number, port: number, generation: string[]): Promise<DataSet> {
  const database = `${benchEnv().DB_NAME}_data_${size}`;
  const env = benchEnv({ DB_NAME: database, QUEUE_PREFIX: `bench-scale-data-${size}` });
  const options = {
    host: env.DB_HOST ?? '127.0.0.1',
    port: Number(env.DB_PORT ?? 3306),
    user: env.DB_USER ?? 'root',
    password: env.DB_PASSWORD ?? '',
    timezone: 'Z',
  };
  const admin = await createConnection(options);
  await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
  await admin.end();
  const api = await startProcess(
    join(DIST, 'main.js'),
    { ...env, PORT: String(port) },
    `http://127.0.0.1:${port}/health/ready`,
  );
  const connections = [
    await createConnection({ ...options, database }),
    await createConnection({ ...options, database }),
  ];
  try {
    const account = cli<{ id: number; apiKey: string }>(
      ['account:create', '--email', `bench-data-${Date.now()}@example.test`, '--name', 'Bench'],
      env,
    );
    const client = benchApi(port, account);
    const { calendarIds, typeId } = await createOpenCalendars(client, {
      calendars: CALENDARS_PER_ACCOUNT,
      minutes: SLOT_MINUTES,
      zone: ZONE,
    });
    await client.put('/settings', { sendConfirmationEmail: false, sendSms: false });
    const started = performance.now();
    const calendars = await fillAccounts(connections[0], account.id, calendarIds, typeId);
    await addAppointments(connections, calendars, 0, size);
    await connections[0].query('ANALYZE TABLE appointments');
    generation.push(
      `${ACCOUNTS} accounts, ${calendars.length} calendars, ${size} appointments in ${seconds(started)} s`,
    );
    console.log(`data: ${generation[generation.length - 1]}`);
    return {
      size,
      port,
      headers: client.headers,
      typeId,
      next: distinctSlots({
        calendarIds,
        typeId,
        slotMinutes: SLOT_MINUTES,
        firstDayAhead: DAYS_AHEAD + 1,
        maxDaysInAdvance: 3650,
      }),
      stop: () => stopProcess(api),
    };
  } catch (err) {
    await stopProcess(api);
    throw err;
  } finally {
    await Promise.all(connections.map((c) => c.end()));
  }
}

/** Waits (up to a minute) for InnoDB to write back the bulk insert's pages before measuring. */
async function settle(): Promise<void> {
  const env = benchEnv();
  const db = await createConnection({
    host: env.DB_HOST ?? '127.0.0.1',
    port: Number(env.DB_PORT ?? 3306),
    user: env.DB_USER ?? 'root',
    password: env.DB_PASSWORD ?? '',
  });
  try {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const [[row]] = await db.query<RowDataPacket[]>(
        "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'",
      );
      if (Number(row.Value) < 500) return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await db.end();
  }
}

interface CalendarRef {
  accountId: number;
  calendarId: number;
  typeId: number;
}

/** Copies the measured account, its calendars and its type into the other 999 accounts. */
async function fillAccounts(
  db: Connection,
  accountId: number,
  calendarIds: number[],
  typeId: number,
): Promise<CalendarRef[]> {
  const [[account]] = await db.query<RowDataPacket[]>('SELECT * FROM accounts WHERE id = ?', [
    accountId,
  ]);
  const accountIds = await cloneRows(
    db,
    'accounts',
    Array.from({ length: ACCOUNTS - 1 }, (_, i) => ({
      ...account,
      email: `filler-${i}-${Date.now()}@bench.test`,
    })),
  );
  const [calendars] = await db.query<RowDataPacket[]>('SELECT * FROM calendars WHERE id IN (?)', [
    calendarIds,
  ]);
  const [[type]] = await db.query<RowDataPacket[]>('SELECT * FROM appointment_types WHERE id = ?', [
    typeId,
  ]);
  const typeIds = await cloneRows(
    db,
    'appointment_types',
    accountIds.map((id) => ({ ...type, account_id: id })),
  );
  const fillerCalendars = await cloneRows(
    db,
    'calendars',
    accountIds.flatMap((id) => calendars.map((c) => ({ ...c, account_id: id }))),
  );
  const refs: CalendarRef[] = calendarIds.map((calendarId) => ({ accountId, calendarId, typeId }));
  fillerCalendars.forEach((calendarId, i) => {
    const owner = Math.floor(i / calendars.length);
    refs.push({ accountId: accountIds[owner], calendarId, typeId: typeIds[owner] });
  });
  return refs;
}

/** Inserts rows (their own id left out) in multi-row INSERTs; their new ids, in order. */
async function cloneRows(
  db: Connection,
  table: string,
  rows: Record<string, unknown>[],
): Promise<number[]> {
  const columns = Object.keys(rows[0]).filter((c) => c !== 'id');
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    const [result] = await db.query<{ insertId: number } & RowDataPacket[]>(
      `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`,
      [chunk.map((row) => columns.map((c) => storable(row[c])))],
    );
    // InnoDB gives a multi-row INSERT consecutive ids (innodb_autoinc_lock_mode 1 or 2, one
    // statement at a time on this connection).
    for (let n = 0; n < chunk.length; n++) ids.push(result.insertId + n);
  }
  return ids;
}

function storable(value: unknown): unknown {
  if (value === null || value instanceof Date || Buffer.isBuffer(value)) return value;
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

/** `count` appointments from the `from`-th on, every calendar in turn, on 2 connections. */
async function addAppointments(
  connections: Connection[],
  calendars: CalendarRef[],
  from: number,
  count: number,
): Promise<void> {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const days = DAYS_BACK + DAYS_AHEAD;
  const now = new Date();
  let nextChunk = from;
  const end = from + count;
  const worker = async (db: Connection) => {
    while (nextChunk < end) {
      const first = nextChunk;
      nextChunk = Math.min(end, nextChunk + CHUNK);
      const rows: unknown[][] = [];
      for (let i = first; i < nextChunk; i++) {
        const c = calendars[i % calendars.length];
        const k = Math.floor(i / calendars.length);
        const day = today + ((k % days) - DAYS_BACK) * DAY_MS;
        const slot = (Math.floor(k / days) * 7 + 36) % 96; // from 09:00, a different slot a pass
        const start = new Date(day + slot * SLOT_MINUTES * 60_000);
        const finish = new Date(start.getTime() + SLOT_MINUTES * 60_000);
        rows.push([c.accountId, c.typeId, c.calendarId, start, finish, start, finish, now, now]);
      }
      await db.query(
        `INSERT INTO appointments (account_id, appointment_type_id, calendar_id, starts_at,
           ends_at, busy_from, busy_until, created_at, updated_at) VALUES ?`,
        [rows],
      );
    }
  };
  await Promise.all(connections.map(worker));
}

async function measure({ port, headers, typeId, next }: DataSet): Promise<Measure> {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  let day = 0;
  const date = () => new Date(today + (1 + (day++ % DAYS_AHEAD)) * DAY_MS).toISOString();
  const nextMonth = new Date(today + 31 * DAY_MS).toISOString().slice(0, 7);
  const get = (path: () => string): autocannon.Options => ({
    url: `http://127.0.0.1:${port}`,
    connections: 8,
    duration: DURATION_S,
    requests: [{ method: 'GET', headers, setupRequest: (r) => ({ ...r, path: path() }) }],
  });
  const times = await load(
    get(() => `/api/v1/availability/times?appointmentTypeID=${typeId}&date=${date().slice(0, 10)}`),
  );
  const dates = await load(
    get(() => `/api/v1/availability/dates?appointmentTypeID=${typeId}&month=${nextMonth}`),
  );
  const booking = await load({
    url: `http://127.0.0.1:${port}/api/v1/appointments`,
    connections: 20,
    duration: DURATION_S,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/appointments',
        headers,
        setupRequest: (request) => ({ ...request, body: next() }),
      },
    ],
  });
  if (times.non2xx + dates.non2xx > 0) throw new Error('availability answered non-2xx');
  return {
    timesP50: times.p50Ms,
    datesP50: dates.p50Ms,
    bookingsPerSecond:
      booking.requests > 0
        ? (booking.requestsPerSecond * (booking.requests - booking.non2xx)) / booking.requests
        : 0,
  };
}

function medianMeasure(list: Measure[]): Measure {
  return {
    timesP50: median(list.map((m) => m.timesP50)),
    datesP50: median(list.map((m) => m.datesP50)),
    bookingsPerSecond: median(list.map((m) => m.bookingsPerSecond)),
  };
}

function describeMeasure(m: Measure): string {
  return `times p50 ${m.timesP50} ms, dates p50 ${m.datesP50} ms, ${m.bookingsPerSecond.toFixed(0)} bookings/s`;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
