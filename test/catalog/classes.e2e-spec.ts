import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

describe('Classes: /classes, the sessions of class types (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let calendar: number;
  let yoga: number;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
    calendar = await createCalendar(api, { name: 'Studio', timezone: 'Europe/London' });
    yoga = await createAppointmentType(api, {
      name: 'Yoga',
      duration: 60,
      type: 'class',
      classSize: 12,
      calendarIDs: [calendar],
    });
  });

  afterAll(() => app.close());

  it('creates a session read in the calendar zone, and reads it back', async () => {
    const res = await api.post('/classes', {
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: '2030-07-01T18:30',
    });
    const session = {
      id: expect.any(Number),
      appointmentTypeID: yoga,
      calendarID: calendar,
      name: 'Yoga',
      time: '2030-07-01T18:30:00+0100',
      calendar: 'Studio',
      duration: 60,
      slots: 12,
    };
    expect(res.status).toBe(200);
    expect(res.body).toEqual(session);
    const id = (res.body as { id: number }).id;
    expect((await api.get(`/classes/${id}`)).body).toEqual(session);
    expect((await api.get(`/classes?appointmentTypeID=${yoga}`)).body).toContainEqual(session);

    expect((await api.delete(`/classes/${id}`)).status).toBe(204);
    expect(await api.get(`/classes/${id}`)).toMatchObject(apiError(404, 'not_found', 'Not Found'));
  });

  it('takes an explicit offset and a name of its own; lists in start order', async () => {
    const late = await api.post('/classes', {
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: '2030-01-15T20:00:00-0500',
      name: 'Evening yoga',
    });
    const early = await api.post('/classes', {
      appointmentTypeID: yoga,
      calendarID: calendar,
      datetime: '2030-01-15 09:00',
    });
    expect(late.body).toMatchObject({ name: 'Evening yoga', time: '2030-01-16T01:00:00+0000' });
    expect(early.body).toMatchObject({ name: 'Yoga', time: '2030-01-15T09:00:00+0000' });
    const listed = (await api.get(`/classes?calendarID=${calendar}`)).body as { id: number }[];
    const ids = listed.map((s) => s.id);
    expect(ids.indexOf((early.body as { id: number }).id)).toBeLessThan(
      ids.indexOf((late.body as { id: number }).id),
    );
  });

  describe('validation', () => {
    let service: number;
    let otherCalendar: number;

    beforeAll(async () => {
      service = await createAppointmentType(api, { calendarIDs: [calendar] });
      otherCalendar = await createCalendar(api);
    });

    const cases: [string, () => Record<string, unknown>, string, () => string][] = [
      [
        'no type',
        () => ({ calendarID: calendar, datetime: '2030-01-01T10:00' }),
        'required_appointment_type_id',
        () => 'The parameter "appointmentTypeID" is required.',
      ],
      [
        'no calendar',
        () => ({ appointmentTypeID: yoga, datetime: '2030-01-01T10:00' }),
        'required_calendar_id',
        () => 'The parameter "calendarID" is required.',
      ],
      [
        'no datetime',
        () => ({ appointmentTypeID: yoga, calendarID: calendar }),
        'required_datetime',
        () => 'The parameter "datetime" is required.',
      ],
      [
        'an unknown type',
        () => ({
          appointmentTypeID: 999999999,
          calendarID: calendar,
          datetime: '2030-01-01T10:00',
        }),
        'invalid_appointment_type',
        () => 'The appointment type "999999999" does not exist.',
      ],
      [
        'a service type',
        () => ({ appointmentTypeID: service, calendarID: calendar, datetime: '2030-01-01T10:00' }),
        'invalid_appointment_type',
        () => `The appointment type "${service}" is not a class.`,
      ],
      [
        'an unknown calendar',
        () => ({ appointmentTypeID: yoga, calendarID: 999999999, datetime: '2030-01-01T10:00' }),
        'invalid_calendar',
        () => 'The calendar "999999999" does not exist.',
      ],
      [
        'a calendar the type is not offered on',
        () => ({
          appointmentTypeID: yoga,
          calendarID: otherCalendar,
          datetime: '2030-01-01T10:00',
        }),
        'invalid_calendar',
        () => `The calendar "${otherCalendar}" does not offer appointment type "${yoga}".`,
      ],
      [
        'a bad datetime',
        () => ({ appointmentTypeID: yoga, calendarID: calendar, datetime: 'next monday' }),
        'invalid_datetime',
        () => 'The datetime "next monday" is invalid.',
      ],
      [
        'a local time skipped by DST',
        () => ({ appointmentTypeID: yoga, calendarID: calendar, datetime: '2030-03-31T01:30' }),
        'invalid_datetime',
        () => 'The datetime "2030-03-31T01:30" is invalid.',
      ],
      [
        'a non-numeric type id',
        () => ({ appointmentTypeID: 'yoga', calendarID: calendar, datetime: '2030-01-01T10:00' }),
        'invalid_appointment_type_id',
        () => 'Invalid "appointmentTypeID" attribute value.',
      ],
    ];

    it.each(cases)('refuses %s', async (_, body, error, message) => {
      const before = (await api.get('/classes')).body as unknown[];
      expect(await api.post('/classes', body())).toMatchObject(apiError(400, error, message()));
      expect((await api.get('/classes')).body).toEqual(before);
    });

    it('refuses a second session of the type at the same time on the same calendar', async () => {
      const body = { appointmentTypeID: yoga, calendarID: calendar, datetime: '2030-02-01T07:00' };
      expect((await api.post('/classes', body)).status).toBe(200);
      expect(await api.post('/classes', body)).toMatchObject(
        apiError(
          400,
          'duplicate_class',
          `A session of appointment type "${yoga}" already starts at "2030-02-01T07:00" on calendar "${calendar}".`,
        ),
      );
    });

    it("refuses another account's type or calendar with 403", async () => {
      const stranger = apiClient(app, await createAccount(app));
      expect(
        await stranger.post('/classes', {
          appointmentTypeID: yoga,
          calendarID: calendar,
          datetime: '2030-01-01T10:00',
        }),
      ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
    });
  });
});
