import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/**
 * `GET /appointments`: the reference's `direction` and its date-only bounds on the days a zone
 * changes its offset. New York falls back on Sunday 2030-11-03 (a 25-hour day) and springs forward
 * on Sunday 2030-03-10 (23 hours); the account is in Los Angeles, three hours behind.
 */
describe('GET /appointments: direction, and minDate/maxDate on DST days (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let calendar: number;
  const at: Record<string, number> = {};

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app, { timezone: 'America/Los_Angeles' }));
    calendar = await createCalendar(api, { timezone: 'America/New_York' });
    const type = await createAppointmentType(api, { duration: 30, calendarIDs: [calendar] });
    // Admin bookings, so that any hour can be taken; datetimes read in New York.
    for (const [name, datetime] of Object.entries({
      fallStart: '2030-11-03T00:00', // the first moment of the long day
      fallRepeated: '2030-11-03T01:30-0500', // the second 01:30 of that day
      fallLast: '2030-11-03T23:30', // its last half hour: 04:30 UTC the next day
      springLast: '2030-03-10T23:30', // the short day's last half hour
      springNext: '2030-03-11T00:00',
    })) {
      const res = await api.post('/appointments?admin=true', {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        appointmentTypeID: type,
        calendarID: calendar,
        datetime,
      });
      if (res.status !== 200) throw new Error(`booking ${name} → ${JSON.stringify(res.body)}`);
      at[name] = (res.body as { id: number }).id;
    }
  });

  afterAll(() => app.close());

  const ids = async (query: string) => {
    const res = await api.get(`/appointments?${query}`);
    expect(res.status).toBe(200);
    return (res.body as { id: number }[]).map((a) => a.id);
  };

  it("holds a whole DST day, its last hour included, in the calendar's zone", async () => {
    const day = `calendarID=${calendar}&minDate=2030-11-03&maxDate=2030-11-03`;
    expect(await ids(`${day}&direction=ASC`)).toEqual([at.fallStart, at.fallRepeated, at.fallLast]);
    expect(await ids(`${day}&direction=DESC`)).toEqual([
      at.fallLast,
      at.fallRepeated,
      at.fallStart,
    ]);
    expect(await ids(`calendarID=${calendar}&maxDate=2030-03-10&direction=asc`)).toEqual([
      at.springLast,
    ]);
    expect(await ids(`calendarID=${calendar}&minDate=2030-03-11&maxDate=2030-03-11`)).toEqual([
      at.springNext,
    ]);
  });

  it("reads the days in the account's zone when no calendar is named", async () => {
    // In Los Angeles (still on summer time until 09:00 UTC) New York's long day begins on
    // Saturday 2030-11-02 at 21:00, and its repeated 01:30 is Saturday 23:30.
    expect(await ids('minDate=2030-11-02&maxDate=2030-11-02&direction=ASC')).toEqual([
      at.fallStart,
      at.fallRepeated,
    ]);
    expect(await ids('minDate=2030-11-03&maxDate=2030-11-03')).toEqual([at.fallLast]);
    // New York's 2030-03-11 00:00 is Los Angeles' 2030-03-10 21:00.
    expect(await ids('minDate=2030-03-10&maxDate=2030-03-10&direction=ASC')).toEqual([
      at.springLast,
      at.springNext,
    ]);
  });

  it('pages in either direction with max, from the right end', async () => {
    expect(await ids('max=2&direction=ASC')).toEqual([at.springLast, at.springNext]);
    expect(await ids('max=2')).toEqual([at.fallLast, at.fallRepeated]);
    expect(await ids('max=2&direction=DESC&maxDate=2030-11-02')).toEqual([
      at.fallRepeated,
      at.fallStart,
    ]);
    expect(await ids('max=1&direction=ASC&minDate=2030-11-03')).toEqual([at.fallLast]);
  });
});
