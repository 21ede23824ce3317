import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** Monday 2030-06-03 in New York (-0400); types look 10 years ahead so that it is bookable. */
const MONDAY = '2030-06-03';
const HORIZON = { maxDaysInAdvance: 3650 };
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };

describe('POST /appointments (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    account = await createAccount(app, { timezone: 'America/Chicago' });
    api = apiClient(app, account);
  });

  afterAll(() => app.close());

  async function service(attributes: Record<string, unknown> = {}) {
    const calendar = await createCalendar(api, {
      name: 'Alex',
      location: '5th Avenue',
      timezone: 'America/New_York',
      hours: HOURS,
    });
    const type = await createAppointmentType(api, {
      name: 'Haircut',
      category: 'Hair',
      duration: 45,
      price: '40.00',
      slotInterval: 15,
      calendarIDs: [calendar],
      ...HORIZON,
      ...attributes,
    });
    return { calendar, type };
  }

  const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };

  it('books a client appointment and answers the Appointment object in the contract formats', async () => {
    const { calendar, type } = await service();
    const res = await api.post('/appointments', {
      ...client,
      phone: '+1 555 0100',
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T14:30:00-0400`,
    });
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({
      status: 200,
      body: 'ok',
    });
    const id = (res.body as { id: number }).id;
    expect(res.body).toEqual({
      id,
      firstName: 'Ada',
      lastName: 'Lovelace',
      phone: '+1 555 0100',
      email: 'ada@example.com',
      date: 'June 3, 2030',
      time: '2:30pm',
      endTime: '3:15pm',
      dateCreated: expect.stringMatching(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/),
      datetimeCreated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/),
      datetime: `${MONDAY}T14:30:00-0400`,
      price: '40.00',
      priceSold: '40.00',
      paid: 'no',
      amountPaid: '0.00',
      type: 'Haircut',
      appointmentTypeID: type,
      classID: null,
      addonIDs: [],
      category: 'Hair',
      duration: '45',
      calendar: 'Alex',
      calendarID: calendar,
      calendarTimezone: 'America/New_York',
      location: '5th Avenue',
      certificate: '',
      confirmationPage: expect.stringMatching(
        new RegExp(`^http://localhost:3000/confirmation/${id}-[0-9a-f]{32}$`),
      ),
      formsText: '',
      forms: [],
      notes: '',
      timezone: 'America/New_York',
      labels: [],
      resources: [],
      canceled: false,
      noShow: false,
      canClientCancel: true,
      canClientReschedule: true,
      scheduledBy: null,
    });
    expect((await api.get(`/appointments/${id}`)).body).toEqual(res.body);
    // The slot is taken now.
    expect(
      await api.post('/appointments', {
        ...client,
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: `${MONDAY}T14:30`,
      }),
    ).toMatchObject(
      apiError(400, 'not_available', `The time "${MONDAY}T14:30" is not an available time slot.`),
    );
    // The booking's one event is in the outbox, in the booking's transaction.
    const events = await app
      .get(DataSource)
      .query<{ type: string }[]>(
        "SELECT type FROM outbox WHERE JSON_VALUE(payload, '$.appointmentId') = ? ORDER BY id",
        [id],
      );
    expect(events.map((e) => e.type)).toEqual(['appointment.scheduled']);
  });

  it('100 parallel bookings of one slot: exactly one is booked, the others are not_available', async () => {
    const { calendar, type } = await service();
    const body = {
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T10:00`,
    };
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => api.post('/appointments', body)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect(refused).toMatchObject(
        apiError(400, 'not_available', `The time "${MONDAY}T10:00" is not an available time slot.`),
      );
    const [{ live }] = await app
      .get(DataSource)
      .query<{ live: string }[]>(
        'SELECT COUNT(*) AS live FROM appointments WHERE calendar_id = ? AND canceled = 0',
        [calendar],
      );
    expect(Number(live)).toBe(1);
  });

  it.each([
    [
      { lastName: 'L', email: 'a@b.co' },
      'required_first_name',
      'Attribute "firstName" is required.',
    ],
    [
      { firstName: 'A', email: 'a@b.co' },
      'required_last_name',
      'Attribute "lastName" is required.',
    ],
    [{ firstName: 'A', lastName: 'L' }, 'required_email', 'Attribute "email" is required.'],
    [
      { firstName: 'A', lastName: 'L', email: 'nope' },
      'invalid_email',
      'Invalid "email" attribute value.',
    ],
  ])('refuses %p', async (body, error, message) => {
    const { type } = await service();
    expect(
      await api.post('/appointments', {
        ...body,
        appointmentTypeID: type,
        datetime: `${MONDAY}T10:00`,
      }),
    ).toMatchObject(apiError(400, error, message));
  });
});
