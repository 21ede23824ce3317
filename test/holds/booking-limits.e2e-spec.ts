import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { HORIZON, client, offeredTimes } from './hold-fixtures';

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ start: '09:00', end: '12:00' }],
  ]),
);

/** Booking limits as clients see them: availability leaves out full days and weeks, booking refuses them. */
describe('booking limits (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app, { timezone: 'America/New_York' }));
  });

  afterAll(() => app.close());

  const dates = async (type: number, calendar: number) =>
    (
      (
        await api.get(
          `/availability/dates?appointmentTypeID=${type}&calendarID=${calendar}&month=2030-06`,
        )
      ).body as { date: string }[]
    ).map((d) => d.date);

  const book = (type: number, calendar: number, datetime: string, admin = false) =>
    api.post(`/appointments${admin ? '?admin=true' : ''}`, {
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime,
    });

  it("a type's weekly limit: its ISO week (Monday to Sunday) leaves availability once full", async () => {
    const calendar = await createCalendar(api, { hours: EVERY_DAY });
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      maxPerWeek: 2,
      ...HORIZON,
    });
    expect(await dates(type, calendar)).toContain('2030-06-05');
    expect((await book(type, calendar, '2030-06-03T09:00')).status).toBe(200);
    const second = await book(type, calendar, '2030-06-09T11:00');
    expect(second.status).toBe(200);
    const offered = await dates(type, calendar);
    for (const day of ['2030-06-03', '2030-06-05', '2030-06-09'])
      expect(offered).not.toContain(day);
    expect(offered).toContain('2030-06-10');
    expect(offered).toContain('2030-06-02');
    expect(await book(type, calendar, '2030-06-05T09:00')).toMatchObject(
      apiError(400, 'not_available', 'The time "2030-06-05T09:00" is not an available time slot.'),
    );
    // A hold is refused as the booking is.
    expect(
      await api.post('/slot-holds', {
        appointmentTypeID: type,
        calendarID: calendar,
        datetime: '2030-06-05T09:00',
      }),
    ).toMatchObject(
      apiError(400, 'not_available', 'The time "2030-06-05T09:00" is not an available time slot.'),
    );
    // A canceled appointment no longer counts.
    const { id } = second.body as { id: number };
    expect((await api.put(`/appointments/${id}/cancel`, {})).status).toBe(200);
    expect(await offeredTimes(api, type, calendar, '2030-06-05')).toEqual([
      '09:00',
      '10:00',
      '11:00',
    ]);
  });

  it("a calendar's daily limit counts every type's appointments, admins' too, in the calendar's zone", async () => {
    const calendar = await createCalendar(api, {
      hours: EVERY_DAY,
      timezone: 'Asia/Tokyo',
      maxPerDay: 2,
    });
    const first = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    const second = await createAppointmentType(api, {
      duration: 30,
      calendarIDs: [calendar],
      ...HORIZON,
    });
    expect((await book(first, calendar, '2030-06-05T09:00')).status).toBe(200);
    // An admin is not refused, and counts.
    expect((await book(second, calendar, '2030-06-05T20:00', true)).status).toBe(200);
    expect(await offeredTimes(api, second, calendar, '2030-06-05')).toEqual([]);
    expect(await book(second, calendar, '2030-06-05T11:00')).toMatchObject(
      apiError(400, 'not_available', 'The time "2030-06-05T11:00" is not an available time slot.'),
    );
    expect((await book(second, calendar, '2030-06-06T09:00')).status).toBe(200);
    expect((await book(first, calendar, '2030-06-05T11:00', true)).status).toBe(200);
    // Without the calendar named, the client is told no calendar can take it.
    expect(
      await api.post('/appointments', {
        ...client,
        appointmentTypeID: first,
        datetime: '2030-06-04T21:00',
      }),
    ).toMatchObject(
      apiError(400, 'no_available_calendar', 'We could not find an available calendar.'),
    );
  });

  it('a class type with a daily limit: its sessions on a full day take no one', async () => {
    const calendar = await createCalendar(api, { hours: EVERY_DAY });
    const yoga = await createAppointmentType(api, {
      name: 'Yoga',
      duration: 60,
      type: 'class',
      classSize: 10,
      calendarIDs: [calendar],
      maxPerDay: 1,
      ...HORIZON,
    });
    for (const time of ['09:00', '11:00'])
      expect(
        (
          await api.post('/classes', {
            appointmentTypeID: yoga,
            calendarID: calendar,
            datetime: `2030-06-05T${time}`,
          })
        ).status,
      ).toBe(200);
    expect((await book(yoga, calendar, '2030-06-05T09:00')).status).toBe(200);
    expect(await offeredTimes(api, yoga, calendar, '2030-06-05')).toEqual([]);
    // The list of classes leaves out the full day's sessions (and shows them with
    // includeUnavailable), whatever seats they have.
    const listed = async (extra = '') =>
      (
        (await api.get(`/availability/classes?appointmentTypeID=${yoga}&month=2030-06${extra}`))
          .body as { time: string; slotsAvailable: number }[]
      ).map((c) => [c.time, c.slotsAvailable]);
    expect(await listed()).toEqual([]);
    expect(await listed('&includeUnavailable=true')).toEqual([
      ['2030-06-05T09:00:00-0400', 9],
      ['2030-06-05T11:00:00-0400', 10],
    ]);
    expect(await book(yoga, calendar, '2030-06-05T11:00')).toMatchObject(
      apiError(400, 'not_available', 'The time "2030-06-05T11:00" is not an available time slot.'),
    );
  });

  it("a client's reschedule: into a full day refused, within its own day allowed", async () => {
    const calendar = await createCalendar(api, { hours: EVERY_DAY });
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      maxPerDay: 1,
      ...HORIZON,
    });
    const wednesday = await book(type, calendar, '2030-06-05T09:00');
    const thursday = await book(type, calendar, '2030-06-06T09:00');
    const { id } = thursday.body as { id: number };
    expect([wednesday.status, thursday.status]).toEqual([200, 200]);
    expect(
      await api.put(`/appointments/${id}/reschedule`, { datetime: '2030-06-05T11:00' }),
    ).toMatchObject(
      apiError(400, 'not_available', 'The time "2030-06-05T11:00" is not an available time slot.'),
    );
    expect(
      await api.put(`/appointments/${id}/reschedule`, { datetime: '2030-06-06T11:00' }),
    ).toMatchObject({ status: 200, body: { datetime: '2030-06-06T11:00:00-0400' } });
    // An admin moves it anyway.
    expect(
      (
        await api.put(`/appointments/${id}/reschedule?admin=true`, {
          datetime: '2030-06-05T11:00',
        })
      ).status,
    ).toBe(200);
  });
});
