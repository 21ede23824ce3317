import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** Monday 2030-06-03 in New York (-0400); types look 10 years ahead so that it is bookable. */
const MONDAY = '2030-06-03';
const HORIZON = { maxDaysInAdvance: 3650 };
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };

/** `HH:MM` of the quarter-hour `quarter` counted from midnight. */
const quarterTime = (quarter: number) =>
  `${String(Math.floor(quarter / 4)).padStart(2, '0')}:${String((quarter % 4) * 15).padStart(2, '0')}`;

/** The client list is the people who booked: every booking adds its client or updates them. */
describe('Clients: what bookings write to the client list (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
  });

  afterAll(() => app.close());

  /** An account with one calendar open on Mondays 09:00–17:00 and a 15-minute service. */
  async function business(calendarCount = 1): Promise<{
    account: TestAccount;
    api: ApiClient;
    calendars: number[];
    type: number;
  }> {
    const account = await createAccount(app);
    const api = apiClient(app, account);
    const calendars: number[] = [];
    for (let i = 0; i < calendarCount; i++)
      calendars.push(await createCalendar(api, { name: `Chair ${i}`, hours: HOURS }));
    const type = await createAppointmentType(api, {
      duration: 15,
      calendarIDs: calendars,
      ...HORIZON,
    });
    return { account, api, calendars, type };
  }

  let slot = 36;
  /** A booking of the next free quarter-hour of the Monday. */
  async function book(
    api: ApiClient,
    type: number,
    client: Record<string, unknown>,
    options: { admin?: boolean; calendarID?: number } = {},
  ): Promise<{ id: number }> {
    const res = await api.post(`/appointments${options.admin ? '?admin=true' : ''}`, {
      ...client,
      appointmentTypeID: type,
      ...(options.calendarID === undefined ? {} : { calendarID: options.calendarID }),
      datetime: `${MONDAY}T${quarterTime(slot++)}`,
    });
    expect({ status: res.status, body: res.status === 200 ? 'booked' : res.body }).toEqual({
      status: 200,
      body: 'booked',
    });
    return res.body as { id: number };
  }

  const ada = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

  beforeEach(() => {
    slot = 36;
  });

  it('lists the client who booked, then keeps their record up to date', async () => {
    const { api, type } = await business();
    await book(api, type, { ...ada, phone: '+1 555 0100' });
    expect((await api.get('/clients')).body).toEqual([{ ...ada, phone: '+1 555 0100', notes: '' }]);

    // The owner's notes are never touched by a booking.
    await api.put('/clients?firstName=Ada&lastName=Lovelace', { notes: 'Prefers the window.' });
    // Booked again with a new phone: the same record, the new phone.
    await book(api, type, { ...ada, phone: '+44 20 7946 0000' });
    expect((await api.get('/clients')).body).toEqual([
      { ...ada, phone: '+44 20 7946 0000', notes: 'Prefers the window.' },
    ]);
    // Without a phone, in other case and spacing: the phone is kept, the latest spelling taken.
    await book(api, type, { ...ada, firstName: ' ADA', email: 'Ada@Example.com ' });
    expect((await api.get('/clients')).body).toEqual([
      { ...ada, firstName: 'ADA', phone: '+44 20 7946 0000', notes: 'Prefers the window.' },
    ]);
    // Another e-mail is another client of the same name.
    await book(api, type, { ...ada, email: 'countess@example.com' });
    expect((await api.get('/clients?search=lovelace')).body).toEqual([
      { ...ada, firstName: 'ADA', phone: '+44 20 7946 0000', notes: 'Prefers the window.' },
      { ...ada, email: 'countess@example.com', phone: '', notes: '' },
    ]);
  });

  it('keys an admin booking without e-mail on the phone, by its digits', async () => {
    const { api, type, calendars } = await business();
    const grace = { firstName: 'Grace', lastName: 'Hopper' };
    await book(
      api,
      type,
      { ...grace, phone: '+1 (555) 010-0000' },
      { admin: true, calendarID: calendars[0] },
    );
    await book(
      api,
      type,
      { ...grace, phone: '1 555 010 0000' },
      { admin: true, calendarID: calendars[0] },
    );
    await book(api, type, grace, { admin: true, calendarID: calendars[0] });
    expect((await api.get('/clients')).body).toEqual([
      { ...grace, email: '', phone: '1 555 010 0000', notes: '' },
      { ...grace, email: '', phone: '', notes: '' },
    ]);
  });

  it('leaves the client record alone when the owner edits an appointment (its history)', async () => {
    const { api, type } = await business();
    const { id } = await book(api, type, { ...ada, phone: '+1 555 0100' });
    const edited = await api.put(`/appointments/${id}?admin=true`, {
      firstName: 'Augusta',
      lastName: 'King',
      email: 'augusta@example.com',
      phone: '+1 555 0199',
      notes: 'Moved by phone.',
    });
    expect(edited).toMatchObject({
      status: 200,
      body: { id, firstName: 'Augusta', lastName: 'King', email: 'augusta@example.com' },
    });
    expect((await api.get('/clients')).body).toEqual([{ ...ada, phone: '+1 555 0100', notes: '' }]);
  });

  it('writes nothing for a booking refused, nor in another account', async () => {
    const { api, type, calendars } = await business();
    const other = await business();
    await book(api, type, ada, { calendarID: calendars[0] });
    slot--;
    const taken = await api.post('/appointments', {
      firstName: 'Late',
      lastName: 'Comer',
      email: 'late@example.com',
      appointmentTypeID: type,
      calendarID: calendars[0],
      datetime: `${MONDAY}T${quarterTime(slot)}`,
    });
    expect(taken).toMatchObject({ status: 400, body: { error: 'not_available' } });
    expect((await api.get('/clients')).body).toEqual([{ ...ada, phone: '', notes: '' }]);
    expect((await other.api.get('/clients')).body).toEqual([]);
  });

  it('makes one record of 100 bookings racing for one new client', async () => {
    // 25 calendars, 4 times each: the bookings lock different calendars and run side by side.
    const { account, api, calendars, type } = await business(25);
    const storm = Array.from({ length: 100 }, (_, i) =>
      api.post('/appointments', {
        firstName: 'Storm',
        lastName: 'Chaser',
        email: 'storm@example.com',
        phone: `+1 555 01${String(i).padStart(2, '0')}`,
        appointmentTypeID: type,
        calendarID: calendars[i % 25],
        datetime: `${MONDAY}T${quarterTime(36 + Math.floor(i / 25))}`,
      }),
    );
    const answers = await Promise.all(storm);
    expect(answers.map((a) => (a.status === 200 ? 200 : (a.body as unknown)))).toEqual(
      Array(100).fill(200),
    );

    const [clients] = await db.query<{ n: string }[]>(
      'SELECT COUNT(*) AS n FROM clients WHERE account_id = ?',
      [account.id],
    );
    expect(Number(clients.n)).toBe(1);
    const [appointments] = await db.query<{ n: string }[]>(
      'SELECT COUNT(*) AS n FROM appointments WHERE account_id = ? AND canceled = 0',
      [account.id],
    );
    expect(Number(appointments.n)).toBe(100);
    // The record holds the phone of one of the bookings.
    expect((await api.get('/clients')).body).toEqual([
      {
        firstName: 'Storm',
        lastName: 'Chaser',
        email: 'storm@example.com',
        phone: expect.stringMatching(/^\+1 555 01\d\d$/),
        notes: '',
      },
    ]);
  });
});
