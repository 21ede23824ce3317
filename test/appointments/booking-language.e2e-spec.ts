import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import type { Language } from '../../src/common/i18n/languages';
import { Account } from '../../src/modules/accounts';
import {
  BookAppointmentCommand,
  BookAppointmentRequest,
  BookSeriesCommand,
  BookSeriesRequest,
} from '../../src/modules/appointments';
import { NotificationRepository } from '../../src/modules/notifications/notification.repository';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/**
 * The language of a booking made on a client page (BookingMode.language): stored on its row (on
 * every occurrence of a series), kept by a reschedule, never in the API's view; its messages are
 * written in it, and a booking without one follows the account's `language` setting.
 */

/** Monday 2030-06-03 in New York; the type looks 10 years ahead so that it is bookable. */
const MONDAY = '2030-06-03';
const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

describe('The language a booking was made in (e2e, checked in MySQL)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;
  let account: Account;
  let typeId: number;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    const owner = await createAccount(app);
    api = apiClient(app, owner);
    account = await db.manager.findOneByOrFail(Account, { id: owner.id });
    const calendar = await createCalendar(api, {
      hours: { monday: [{ start: '08:00', end: '18:00' }] },
    });
    typeId = await createAppointmentType(api, {
      duration: 30,
      calendarIDs: [calendar],
      maxDaysInAdvance: 3650,
      recurrence: { frequencies: ['weekly'], maxCount: 10 },
    });
  });

  afterAll(() => app.close());

  /** As a client page books: not admin, with the page's language. */
  const pageMode = (language: Language) => ({ admin: false, noEmail: true, language });

  const request = (time: string) =>
    Object.assign(new BookAppointmentRequest(), {
      ...client,
      appointmentTypeID: typeId,
      datetime: `${MONDAY}T${time}`,
    });

  async function languageOf(id: number): Promise<string | null> {
    const [row] = await db.query<{ language: string | null }[]>(
      'SELECT language FROM appointments WHERE id = ?',
      [id],
    );
    return row.language;
  }

  const factsLanguage = async (id: number) =>
    (await app.get(NotificationRepository, { strict: false }).facts(account.id, id))?.language;

  it('stores the language of a page booking, keeps it on reschedule, writes its messages in it', async () => {
    const view = await app
      .get(CommandBus)
      .execute(new BookAppointmentCommand(account, request('09:00'), pageMode('es')));
    expect(await languageOf(view.id)).toBe('es');
    expect(view).not.toHaveProperty('language');
    expect(await factsLanguage(view.id)).toBe('es');

    const moved = await api.put(`/appointments/${view.id}/reschedule?noEmail=true`, {
      datetime: `${MONDAY}T09:30`,
    });
    expect(moved).toMatchObject({ status: 200 });
    expect(moved.body).not.toHaveProperty('language');
    expect(await languageOf(view.id)).toBe('es');
    expect((await api.get(`/appointments/${view.id}`)).body).not.toHaveProperty('language');
  });

  it('stores it on every occurrence of a series booked on a page', async () => {
    const series = await app.get(CommandBus).execute(
      new BookSeriesCommand(
        account,
        Object.assign(new BookSeriesRequest(), request('11:00'), {
          recurrence: { frequency: 'weekly', count: 3 },
        }),
        pageMode('fr'),
      ),
    );
    const ids = series.appointments.map((a) => a.id);
    expect(ids).toHaveLength(3);
    const rows = await db.query<{ language: string | null }[]>(
      'SELECT language FROM appointments WHERE series_id = ?',
      [series.id],
    );
    expect(rows.map((r) => r.language)).toEqual(['fr', 'fr', 'fr']);
    for (const id of ids) expect(await factsLanguage(id)).toBe('fr');
  });

  it("stores none for an API booking, whose messages follow the account's language", async () => {
    const res = await api.post('/appointments?noEmail=true', {
      ...client,
      appointmentTypeID: typeId,
      datetime: `${MONDAY}T13:00`,
    });
    expect(res).toMatchObject({ status: 200 });
    const id = (res.body as { id: number }).id;
    expect(await languageOf(id)).toBeNull();
    expect(await factsLanguage(id)).toBe('en');

    expect(await api.put('/settings', { language: 'de' })).toMatchObject({ status: 200 });
    expect(await factsLanguage(id)).toBe('de');
    // A page booking keeps its own whatever the account's becomes.
    const page = await app
      .get(CommandBus)
      .execute(new BookAppointmentCommand(account, request('14:00'), pageMode('es')));
    expect(await factsLanguage(page.id)).toBe('es');
    await api.put('/settings', { language: 'en' });
  });
});
