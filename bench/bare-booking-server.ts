/*
 * The baseline of bench:booking: node:http + mysql2 doing, for the same JSON bodies, the transaction
 * a booking needs and nothing else. Parse the body, check the few fields (names, e-mail, ids, an
 * ISO datetime), then on a pooled connection (READ COMMITTED, set once per connection): BEGIN, lock
 * the calendar row, read its appointments overlapping the slot by (calendar_id, busy_from) bounded
 * on both sides, insert the appointment, add its client to the client list (or update them), insert
 * its outbox row (one event per change), COMMIT; answer a small JSON.
 * No auth, no type or working hours lookup (the type's duration comes from BARE_DURATION_MINUTES),
 * no framework. It books into the service's own tables, for calendars of its own account.
 */
import { createHash } from 'node:crypto';
import { type ServerResponse, createServer } from 'node:http';
import { createPool } from 'mysql2/promise';
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';

const port = Number(process.env.BARE_PORT ?? 3998);
const durationMs = Number(process.env.BARE_DURATION_MINUTES ?? 15) * 60_000;
/** As the service's MAX_BUSY_SPAN_MINUTES: the lower bound of the overlap read. */
const MAX_BUSY_SPAN_MS = 3 * 1440 * 60_000;

const pool = createPool({
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 3306),
  user: process.env.DB_USER ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
  database: process.env.DB_NAME,
  connectionLimit: Number(process.env.DB_POOL_SIZE ?? 10),
  timezone: 'Z',
});
// The isolation level once per connection, instead of a statement before each transaction.
pool.pool.on('connection', (connection) => {
  connection.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', (err) => {
    if (err) console.error(err);
  });
});

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

interface Booking {
  firstName: string;
  lastName: string;
  email: string;
  calendarId: number;
  typeId: number;
  start: number;
}

function wholeId(value: unknown): number | undefined {
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 && id <= 2_147_483_647
    ? id
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** The booking a body asks for, or the name of the first attribute that is wrong. */
function parse(raw: string): Booking | string {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return 'body';
  }
  if (typeof body !== 'object' || body === null) return 'body';
  const firstName = text(body.firstName);
  if (!firstName) return 'firstName';
  const lastName = text(body.lastName);
  if (!lastName) return 'lastName';
  const email = text(body.email);
  if (!email || !EMAIL.test(email)) return 'email';
  const typeId = wholeId(body.appointmentTypeID);
  if (!typeId) return 'appointmentTypeID';
  const calendarId = wholeId(body.calendarID);
  if (!calendarId) return 'calendarID';
  const start =
    typeof body.datetime === 'string' && ISO.test(body.datetime) ? Date.parse(body.datetime) : NaN;
  if (Number.isNaN(start)) return 'datetime';
  return { firstName, lastName, email: email.toLowerCase(), calendarId, typeId, start };
}

/** The new appointment's id; undefined if the calendar does not exist or the slot is taken. */
async function book(c: PoolConnection, b: Booking): Promise<number | 'calendar' | 'taken'> {
  const end = b.start + durationMs;
  await c.query('START TRANSACTION');
  try {
    const [calendars] = await c.query<RowDataPacket[]>(
      'SELECT id, account_id AS accountId, timezone FROM calendars WHERE id = ? AND deleted_at IS NULL FOR UPDATE',
      [b.calendarId],
    );
    if (calendars.length === 0) {
      await c.query('ROLLBACK');
      return 'calendar';
    }
    const { accountId, timezone } = calendars[0] as { accountId: number; timezone: string };
    const [overlapping] = await c.query<RowDataPacket[]>(
      `SELECT id FROM appointments
        WHERE calendar_id = ? AND busy_from >= ? AND busy_from < ? AND busy_until > ? AND canceled = 0
        LIMIT 1`,
      [b.calendarId, new Date(b.start - MAX_BUSY_SPAN_MS), new Date(end), new Date(b.start)],
    );
    if (overlapping.length > 0) {
      await c.query('ROLLBACK');
      return 'taken';
    }
    const now = new Date();
    const [inserted] = await c.query<ResultSetHeader>(
      `INSERT INTO appointments (account_id, appointment_type_id, calendar_id, starts_at, ends_at,
         busy_from, busy_until, first_name, last_name, email, timezone, addon_ids, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', ?, ?)`,
      [
        accountId,
        b.typeId,
        b.calendarId,
        new Date(b.start),
        new Date(end),
        new Date(b.start),
        new Date(end),
        b.firstName,
        b.lastName,
        b.email,
        timezone,
        now,
        now,
      ],
    );
    const id = inserted.insertId;
    // The client list's upsert, as the service writes it (identityKey of the name and e-mail).
    const identity = createHash('sha256')
      .update(
        JSON.stringify([b.firstName.toLowerCase(), b.lastName.toLowerCase(), 'email', b.email]),
      )
      .digest('hex');
    await c.query(
      `INSERT INTO clients (account_id, identity_key, first_name, last_name, email, phone, notes,
         created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, '', '', ?, ?)
       ON DUPLICATE KEY UPDATE first_name = VALUES(first_name), last_name = VALUES(last_name),
         email = IF(VALUES(email) = '', email, VALUES(email)),
         phone = IF(VALUES(phone) = '', phone, VALUES(phone)), updated_at = VALUES(updated_at)`,
      [accountId, identity, b.firstName, b.lastName, b.email, now, now],
    );
    const payload = JSON.stringify({
      appointmentId: id,
      calendarId: b.calendarId,
      appointmentTypeId: b.typeId,
      noEmail: false,
    });
    // Written as dispatched: no relay is to pick the baseline's events up later.
    await c.query(
      'INSERT INTO outbox (account_id, type, payload, created_at, dispatched_at) VALUES (?, ?, ?, ?, ?)',
      [accountId, 'appointment.scheduled', payload, now, now],
    );
    await c.query('COMMIT');
    return id;
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

function answer(res: ServerResponse, status: number, value: unknown): void {
  const json = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

async function handle(res: ServerResponse, raw: string): Promise<void> {
  const booking = parse(raw);
  if (typeof booking === 'string') {
    answer(res, 400, { error: `invalid_${booking}` });
    return;
  }
  const connection = await pool.getConnection();
  let result: Awaited<ReturnType<typeof book>>;
  try {
    result = await book(connection, booking);
  } finally {
    connection.release();
  }
  if (result === 'calendar') answer(res, 400, { error: 'invalid_calendar' });
  else if (result === 'taken') answer(res, 400, { error: 'not_available' });
  else
    answer(res, 200, {
      id: result,
      calendarID: booking.calendarId,
      appointmentTypeID: booking.typeId,
      datetime: new Date(booking.start).toISOString(),
    });
}

createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') {
    answer(res, 200, { status: 'ok' });
    return;
  }
  if (req.method !== 'POST' || req.url !== '/api/v1/appointments') {
    answer(res, 404, { error: 'not_found' });
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    handle(res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
      console.error(err);
      if (!res.headersSent) answer(res, 500, { error: 'internal' });
    });
  });
}).listen(port, '127.0.0.1');

// Exit on SIGTERM rather than die of it, so that --cpu-prof (BENCH_PROFILE_DIR) writes its profile.
process.once('SIGTERM', () => process.exit(0));
