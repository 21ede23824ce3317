import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';
import { HORIZON, HOURS, MONDAY, tally } from './hold-fixtures';

const capMessage = (max: number) =>
  `The account already has ${max} live slot holds, the most it may have at once ` +
  '(maxLiveHolds): release one or let one end first.';

/** An account's API holds at once are capped (`maxLiveHolds`), exactly, under a storm. */
describe('/slot-holds: the account cap on live API holds (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  /** A 15-minute type on one calendar, Monday 09:00–17:00: 32 times. */
  async function business(): Promise<{ api: ApiClient; account: TestAccount; type: number }> {
    const account = await createAccount(app, { timezone: 'America/New_York' });
    const api = apiClient(app, account);
    const calendar = await createCalendar(api, { hours: HOURS });
    const type = await createAppointmentType(api, {
      duration: 15,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    return { api, account, type };
  }

  const clockOf = (i: number) =>
    `${String(9 + Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`;

  const liveApiHolds = async (accountId: number): Promise<number> => {
    const [row] = await db.query<{ n: string }[]>(
      "SELECT COUNT(*) AS n FROM slot_holds WHERE account_id = ? AND origin = 'api' AND expires_at > ?",
      [accountId, new Date()],
    );
    return Number(row.n);
  };

  it('holds exactly maxLiveHolds of 50 parallel holds of different times; the rest are 429', async () => {
    const { api, account, type } = await business();
    expect((await api.put('/settings', { maxLiveHolds: 10 })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.post('/slot-holds', {
          appointmentTypeID: type,
          datetime: `${MONDAY}T${clockOf(i % 32)}`,
        }),
      ),
    );
    const counts = tally(answers);
    expect(counts['200']).toBe(10);
    // Past the cap every hold is refused as too many, whatever its time (the cap is checked first).
    expect(counts['429 too_many_holds']).toBe(40);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused).toMatchObject(apiError(429, 'too_many_holds', capMessage(10)));
    // Try again when the first hold ends: 5 minutes (the default length) from now, or a little less.
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(240);
    expect(wait).toBeLessThanOrEqual(300);
    expect(await liveApiHolds(account.id)).toBe(10);

    // One released: one more fits, and then none.
    const id = (answers.find((a) => a.status === 200)!.body as { id: number }).id;
    expect((await api.delete(`/slot-holds/${id}`)).status).toBe(204);
    const again = await api.post('/slot-holds', {
      appointmentTypeID: type,
      datetime: `${MONDAY}T16:45`,
    });
    expect(again.status).toBe(200);
    expect(
      await api.post('/slot-holds', { appointmentTypeID: type, datetime: `${MONDAY}T16:30` }),
    ).toMatchObject(apiError(429, 'too_many_holds', capMessage(10)));
  });

  it('counts its own account only, and no ended hold', async () => {
    const first = await business();
    const second = await business();
    await first.api.put('/settings', { maxLiveHolds: 1 });
    await second.api.put('/settings', { maxLiveHolds: 1 });
    const held = await first.api.post('/slot-holds', {
      appointmentTypeID: first.type,
      datetime: `${MONDAY}T09:00`,
    });
    expect(held.status).toBe(200);
    expect(
      (
        await second.api.post('/slot-holds', {
          appointmentTypeID: second.type,
          datetime: `${MONDAY}T09:00`,
        })
      ).status,
    ).toBe(200);
    // Ended (as time would end it): it no longer counts.
    await db.query('UPDATE slot_holds SET expires_at = ? WHERE id = ?', [
      new Date(Date.now() - 1000),
      (held.body as { id: number }).id,
    ]);
    expect(
      (
        await first.api.post('/slot-holds', {
          appointmentTypeID: first.type,
          datetime: `${MONDAY}T10:00`,
        })
      ).status,
    ).toBe(200);
  });
});
