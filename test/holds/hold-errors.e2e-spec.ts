import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAddon, createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { HORIZON, HOURS, MONDAY, client } from './hold-fixtures';

/**
 * What `/slot-holds` refuses, and that a hold is refused exactly as a client's booking of the same
 * time is (status, code and message); another account's holds and tokens do not exist.
 */
describe('/slot-holds refusals and isolation (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let stranger: ApiClient;
  let calendar: number;
  let type: number;
  let strangersType: number;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
    stranger = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
    calendar = await createCalendar(api, { hours: HOURS });
    type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      minHoursInAdvance: 1,
      ...HORIZON,
    });
    const theirCalendar = await createCalendar(stranger, { hours: HOURS });
    strangersType = await createAppointmentType(stranger, {
      calendarIDs: [theirCalendar],
      ...HORIZON,
    });
  });

  afterAll(() => app.close());

  const at = () => ({ appointmentTypeID: type, calendarID: calendar, datetime: `${MONDAY}T09:00` });

  it.each([
    ['nothing', () => ({})],
    ['no type', () => ({ datetime: `${MONDAY}T09:00` })],
    ['no datetime', () => ({ appointmentTypeID: type })],
    ['a type that is no id', () => ({ ...at(), appointmentTypeID: 'abc' })],
    ['a type that does not exist', () => ({ ...at(), appointmentTypeID: 999_999_999 })],
    ["another account's type", () => ({ ...at(), appointmentTypeID: strangersType })],
    ['a calendar that is no id', () => ({ ...at(), calendarID: '1; DROP TABLE slot_holds' })],
    ['a calendar that does not exist', () => ({ ...at(), calendarID: 999_999_999 })],
    ['addons that are no ids', () => ({ ...at(), addonIDs: ['x'] })],
    ['an addon that does not exist', () => ({ ...at(), addonIDs: [999_999_999] })],
    ['an unknown zone', () => ({ ...at(), timezone: 'Mars/Olympus' })],
    ['a datetime that is none', () => ({ ...at(), datetime: 'next tuesday' })],
    ['a datetime object', () => ({ ...at(), datetime: { $gt: '' } })],
    ['a local time that DST skips', () => ({ ...at(), datetime: '2030-03-10T02:30' })],
    ['a time outside the hours', () => ({ ...at(), datetime: `${MONDAY}T20:00` })],
    [
      'a time without a calendar named',
      () => ({ ...at(), calendarID: undefined, datetime: `${MONDAY}T20:00` }),
    ],
    ['a time in the past', () => ({ ...at(), datetime: '2020-06-01T09:00' })],
    ['a time too far ahead', () => ({ ...at(), datetime: '2045-06-05T09:00' })],
  ])('refuses %s as a client booking is refused', async (_, body) => {
    const held = await api.post('/slot-holds', body());
    const booked = await api.post('/appointments', { ...client, ...body() });
    expect(held.status).toBeGreaterThanOrEqual(400);
    expect(held.status).toBeLessThan(500);
    expect({ status: held.status, body: held.body }).toEqual({
      status: booked.status,
      body: booked.body,
    });
  });

  it('gives the contract’s messages for the refusals booking shares', async () => {
    expect(await api.post('/slot-holds', {})).toMatchObject(
      apiError(
        400,
        'required_appointment_type_id',
        'The parameter "appointmentTypeID" is required.',
      ),
    );
    expect(await api.post('/slot-holds', { ...at(), datetime: '2020-06-01T09:00' })).toMatchObject(
      apiError(
        400,
        'not_available_min_hours_in_advance',
        'The time "2020-06-01T09:00" is not far enough in advance.',
      ),
    );
    expect(
      await api.post('/slot-holds', { ...at(), appointmentTypeID: strangersType }),
    ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
    expect(await api.post('/slot-holds', { ...at(), timezone: 'Mars/Olympus' })).toMatchObject(
      apiError(400, 'invalid_timezone', 'Invalid timezone "Mars/Olympus".'),
    );
  });

  it.each([0, -1, 31, 2.5, '5', null, [5], { minutes: 5 }])(
    'refuses minutes %p (at most 30 by default)',
    async (minutes) => {
      expect(await api.post('/slot-holds', { ...at(), minutes })).toMatchObject(
        apiError(400, 'invalid_minutes', 'The minutes must be a whole number from 1 to 30.'),
      );
    },
  );

  it('refuses bodies that are no JSON object', async () => {
    for (const body of [[], 'hold', 42]) {
      const res = await api.post('/slot-holds', body);
      expect(res.status).toBe(400);
      expect((res.body as { error: string }).error).toBe('bad_request');
    }
  });

  it("another account's hold is not found, whatever is asked of it; its token books nothing", async () => {
    const addon = await createAddon(api, { duration: 15 });
    await api.put(`/appointment-types/${type}`, { addonIDs: [addon] });
    const held = await api.post('/slot-holds', {
      ...at(),
      datetime: `${MONDAY}T15:00`,
      addonIDs: [addon],
      timezone: 'Europe/Paris',
    });
    expect(held).toMatchObject({
      status: 200,
      // Shown in the client's zone.
      body: { datetime: `${MONDAY}T21:00:00+0200` },
    });
    const { id, token } = held.body as { id: number; token: string };
    const notFound = apiError(404, 'not_found', 'Not Found');
    expect(await stranger.get(`/slot-holds/${id}`)).toMatchObject(notFound);
    expect(await stranger.put(`/slot-holds/${id}`, { minutes: 10 })).toMatchObject(notFound);
    expect(await stranger.delete(`/slot-holds/${id}`)).toMatchObject(notFound);
    expect(
      await stranger.post('/appointments', {
        ...client,
        appointmentTypeID: strangersType,
        datetime: `${MONDAY}T15:00`,
        holdToken: token,
      }),
    ).toMatchObject(
      apiError(400, 'invalid_hold_token', 'The hold token is unknown, or its hold has ended.'),
    );
    // Still held for its owner.
    expect((await api.get(`/slot-holds/${id}`)).status).toBe(200);
  });

  it.each([
    ['a token that never was', 'A'.repeat(43)],
    ['an empty token', ''],
    ['a token that is no text', 12345],
    ['a huge token', 'x'.repeat(5000)],
  ])('refuses %s', async (_, holdToken) => {
    const res = await api.post('/appointments', {
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T16:00`,
      holdToken,
    });
    expect(res).toMatchObject(
      apiError(400, 'invalid_hold_token', 'The hold token is unknown, or its hold has ended.'),
    );
  });

  it.each(['/slot-holds/abc', '/slot-holds/0', '/slot-holds/99999999999', '/slot-holds/-1'])(
    'answers %s with 404',
    async (path) => {
      for (const res of [
        await api.get(path),
        await api.delete(path),
        await api.put(path, { minutes: 5 }),
      ])
        expect(res.status).toBe(404);
    },
  );

  it('asks for credentials', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/slot-holds', payload: at() });
    expect(res.statusCode).toBe(401);
  });
});
