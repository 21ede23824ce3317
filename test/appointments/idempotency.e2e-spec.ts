import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { apiClient } from '../support/api-client';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

const MONDAY = '2030-06-03';

describe('POST /appointments with an Idempotency-Key (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  let type: number;
  let calendar: number;

  beforeAll(async () => {
    app = await startApi();
    account = await createAccount(app);
    const api = apiClient(app, account);
    calendar = await createCalendar(api, {
      timezone: 'America/New_York',
      hours: { monday: [{ start: '09:00', end: '17:00' }] },
    });
    type = await createAppointmentType(api, {
      duration: 30,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
    });
  });

  afterAll(() => app.close());

  const book = (key: string | undefined, time: string, extra: Record<string, unknown> = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/appointments',
      headers: {
        authorization: account.authorization,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload: JSON.stringify({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T${time}`,
        ...extra,
      }),
    });

  const countAt = async (time: string): Promise<number> => {
    const [{ n }] = await app
      .get(DataSource)
      .query<{ n: string }[]>(
        'SELECT COUNT(*) AS n FROM appointments WHERE calendar_id = ? AND starts_at = ?',
        [calendar, new Date(`${MONDAY}T${time}:00-04:00`)],
      );
    return Number(n);
  };

  it('answers a retried request with the appointment it booked, booking once', async () => {
    const first = await book('retry-1', '09:00');
    expect(first.statusCode).toBe(200);
    const again = await book('retry-1', '09:00');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await countAt('09:00')).toBe(1);
  });

  it('books once for ten requests racing with one key', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => book('race-1', '10:00')));
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((a) => a.json<{ id: number }>().id)).size).toBe(1);
    expect(await countAt('10:00')).toBe(1);
  });

  it('refuses a key used for another request', async () => {
    expect((await book('reuse-1', '11:00')).statusCode).toBe(200);
    const other = await book('reuse-1', '11:30');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({
      status_code: 400,
      error: 'idempotency_key_reused',
      message: 'This Idempotency-Key was used for a different request.',
    });
    expect(await countAt('11:30')).toBe(0);
  });

  it('remembers nothing of a refused request: it may be retried with its key', async () => {
    const refused = await book('fix-1', '12:00', { email: 'not-an-email' });
    expect(refused.statusCode).toBe(400);
    expect((await book('fix-1', '12:00')).statusCode).toBe(200);
  });

  it('forgets a key after 24 hours', async () => {
    expect((await book('old-1', '13:00')).statusCode).toBe(200);
    await app
      .get(DataSource)
      .query(
        "UPDATE idempotency_keys SET created_at = created_at - INTERVAL 25 HOUR WHERE idempotency_key = 'old-1'",
      );
    // A new request now: the slot it asks for is taken.
    expect((await book('old-1', '13:00')).json()).toMatchObject({ error: 'not_available' });
  });

  it.each([
    ['a key with a space', 'two words'],
    ['an empty key', ''],
    ['a long key', 'k'.repeat(256)],
  ])('refuses %s', async (_, key) => {
    const res = await book(key, '14:00');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status_code: 400,
      error: 'invalid_idempotency_key',
      message: 'The "Idempotency-Key" header must be 1 to 255 visible ASCII characters.',
    });
  });
});
