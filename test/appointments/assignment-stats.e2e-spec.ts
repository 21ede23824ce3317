import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { HORIZON, NINE_TO_FIVE, client } from '../holds/hold-fixtures';

/** `GET /appointment-types/{id}/assignment-stats`: how a type's bookings spread over its team. */
describe('assignment stats (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
    other = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  const book = async (type: number, datetime: string) => {
    const res = await api.post('/appointments', { ...client, appointmentTypeID: type, datetime });
    expect(res.status).toBe(200);
    return res.body as { id: number; calendarID: number };
  };

  it('counts each calendar, its share, its weight and when it was last assigned', async () => {
    const names = ['Ana', 'Ben', 'Cy'];
    const calendars: number[] = [];
    for (const name of names)
      calendars.push(await createCalendar(api, { name, hours: NINE_TO_FIVE }));
    const [ana, ben, cy] = calendars;
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: calendars,
      assignment: 'round-robin',
      weights: { [ana]: 2 },
      ...HORIZON,
    });
    // Before any booking: nothing assigned, the target shares by weight.
    const empty = await api.get(`/appointment-types/${type}/assignment-stats`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      appointmentTypeID: type,
      assignment: 'round-robin',
      minDate: null,
      maxDate: null,
      appointments: 0,
      calendars: [
        {
          calendarID: ana,
          name: 'Ana',
          appointments: 0,
          share: 0,
          weight: 2,
          targetShare: 0.5,
          lastAssigned: null,
        },
        {
          calendarID: ben,
          name: 'Ben',
          appointments: 0,
          share: 0,
          weight: 1,
          targetShare: 0.25,
          lastAssigned: null,
        },
        {
          calendarID: cy,
          name: 'Cy',
          appointments: 0,
          share: 0,
          weight: 1,
          targetShare: 0.25,
          lastAssigned: null,
        },
      ],
    });
    // 8 on Monday June 3, 4 on Tuesday June 4: 2:1:1 of each full round.
    const monday = Array.from(
      { length: 8 },
      (_, i) => `2030-06-03T${String(9 + i).padStart(2, '0')}:00`,
    );
    const tuesday = ['09', '10', '11', '12'].map((h) => `2030-06-04T${h}:00`);
    for (const datetime of [...monday, ...tuesday]) await book(type, datetime);
    const stats = await api.get(`/appointment-types/${type}/assignment-stats`);
    expect(stats.body).toMatchObject({
      appointments: 12,
      calendars: [
        { calendarID: ana, appointments: 6, share: 0.5, weight: 2 },
        { calendarID: ben, appointments: 3, share: 0.25 },
        { calendarID: cy, appointments: 3, share: 0.25 },
      ],
    });
    const { calendars: lines } = stats.body as { calendars: { lastAssigned: string }[] };
    for (const line of lines)
      expect(line.lastAssigned).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[45]00$/);
    // The range: Tuesday only (local days of the account's zone); a canceled one leaves it.
    const onTuesday = await api.get(
      `/appointment-types/${type}/assignment-stats?minDate=2030-06-04&maxDate=2030-06-04`,
    );
    expect(onTuesday.body).toMatchObject({
      minDate: '2030-06-04',
      maxDate: '2030-06-04',
      appointments: 4,
      calendars: [{ appointments: 2, share: 0.5 }, { appointments: 1 }, { appointments: 1 }],
    });
    const list = (
      await api.get(`/appointments?appointmentTypeID=${type}&minDate=2030-06-04&maxDate=2030-06-04`)
    ).body as { id: number; calendarID: number }[];
    const onBen = list.find((a) => a.calendarID === ben)!;
    expect((await api.put(`/appointments/${onBen.id}/cancel`, {})).status).toBe(200);
    const after = await api.get(
      `/appointment-types/${type}/assignment-stats?minDate=2030-06-04&maxDate=`,
    );
    expect(after.body).toMatchObject({
      maxDate: null,
      appointments: 3,
      calendars: [
        { appointments: 2, share: 0.6667 },
        { appointments: 0, share: 0 },
        { appointments: 1, share: 0.3333 },
      ],
    });
  });

  it('refuses another account (403), an unknown type (404) and bad dates (400), with the exact messages', async () => {
    const type = await createAppointmentType(api, {});
    expect(await other.get(`/appointment-types/${type}/assignment-stats`)).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await api.get('/appointment-types/999999999/assignment-stats')).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(
      await api.get(`/appointment-types/${type}/assignment-stats?minDate=2030-02-30`),
    ).toMatchObject(apiError(400, 'invalid_min_date', 'Invalid "minDate" attribute value.'));
    expect(
      await api.get(`/appointment-types/${type}/assignment-stats?maxDate=tomorrow`),
    ).toMatchObject(apiError(400, 'invalid_max_date', 'Invalid "maxDate" attribute value.'));
    expect(
      await api.get(
        `/appointment-types/${type}/assignment-stats?minDate=2030-06-05&maxDate=2030-06-04`,
      ),
    ).toMatchObject(
      apiError(
        400,
        'invalid_max_date',
        'The maxDate "2030-06-04" is before the minDate "2030-06-05".',
      ),
    );
    // A repeated parameter is not a date.
    expect(
      (
        await api.get(
          `/appointment-types/${type}/assignment-stats?minDate=2030-06-05&minDate=2030-06-06`,
        )
      ).status,
    ).toBe(400);
    // A deleted type still answers: its appointments stay.
    expect((await api.delete(`/appointment-types/${type}`)).status).toBe(204);
    expect((await api.get(`/appointment-types/${type}/assignment-stats`)).status).toBe(200);
  });
});
