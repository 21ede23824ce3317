import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/** Attributes of the wrong JSON type get the contract's codes, in the contract's order. */
describe('POST /appointments with null and non-text attributes (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let type: number;
  let calendar: number;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
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

  const base = () => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    appointmentTypeID: type,
    calendarID: calendar,
    datetime: '2030-06-03T10:00',
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a null firstName',
      { firstName: null },
      'required_first_name',
      'Attribute "firstName" is required.',
    ],
    [
      'a numeric lastName',
      { lastName: 7 },
      'required_last_name',
      'Attribute "lastName" is required.',
    ],
    ['a null email', { email: null }, 'required_email', 'Attribute "email" is required.'],
    ['a numeric email', { email: 5 }, 'invalid_email', 'Invalid "email" attribute value.'],
    ['a numeric timezone', { timezone: 5 }, 'invalid_timezone', 'Invalid timezone "5".'],
    [
      'a numeric certificate',
      { certificate: 5 },
      'invalid_certificate',
      'The certificate "5" is invalid.',
    ],
    [
      'a numeric email and no firstName',
      { email: 5, firstName: undefined },
      'required_first_name',
      'Attribute "firstName" is required.',
    ],
  ])('refuses %s', async (_, change, error, message) => {
    expect(await api.post('/appointments', { ...base(), ...change })).toMatchObject(
      apiError(400, error, message),
    );
  });

  it('stores a zone by its canonical name', async () => {
    const res = await api.post('/appointments', {
      ...base(),
      datetime: '2030-06-03T11:00',
      timezone: 'europe/paris',
    });
    expect(res).toMatchObject({
      status: 200,
      body: { timezone: 'Europe/Paris', datetime: '2030-06-03T17:00:00+0200', time: '5:00pm' },
    });
  });
});
