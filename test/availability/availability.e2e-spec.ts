import { QueryBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Account } from '../../src/modules/accounts';
import { AvailableDatesWithTimesQuery } from '../../src/modules/availability';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { insertAppointment } from '../support/availability-fixtures';
import { createAddon, createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

/** Monday 2030-06-03 in New York (-0400); the types look 10 years ahead so that it is bookable. */
const MONDAY = '2030-06-03';
const HORIZON = { maxDaysInAdvance: 3650 };
const NY_HOURS = {
  monday: [
    { start: '09:00', end: '12:00' },
    { start: '13:00', end: '17:00' },
  ],
};

const ny = (time: string, date = MONDAY) => `${date}T${time}:00-0400`;
const slot = (time: string, slotsAvailable = 1, date = MONDAY) => ({
  time: ny(time, date),
  slotsAvailable,
});
const ALL_MONDAY = ['09:00', '10:00', '11:00', '13:00', '14:00', '15:00', '16:00'];

describe('Availability: /availability/* (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    account = await createAccount(app, { timezone: 'America/Chicago' });
    api = apiClient(app, account);
  });

  afterAll(() => app.close());

  /** A New York calendar open on Mondays, and a one-hour service on it. */
  async function service(attributes: Record<string, unknown> = {}) {
    const calendar = await createCalendar(api, { timezone: 'America/New_York', hours: NY_HOURS });
    const type = await createAppointmentType(api, {
      duration: 60,
      calendarIDs: [calendar],
      ...HORIZON,
      ...attributes,
    });
    return { calendar, type };
  }

  const times = async (query: string) => api.get(`/availability/times?${query}`);

  describe('GET /availability/times', () => {
    it("offers the type's grid inside the calendar's hours, in the calendar's zone", async () => {
      const { calendar, type } = await service();
      const res = await times(`appointmentTypeID=${type}&calendarID=${calendar}&date=${MONDAY}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(ALL_MONDAY.map((t) => slot(t)));
      // without calendarID, over the type's only calendar; a Tuesday is closed
      expect((await times(`appointmentTypeID=${type}&date=${MONDAY}`)).body).toEqual(res.body);
      expect((await times(`appointmentTypeID=${type}&date=2030-06-04`)).body).toEqual([]);
    });

    it('shows the times in the zone asked for, reading the date in it', async () => {
      const { type } = await service();
      const res = await times(`appointmentTypeID=${type}&date=${MONDAY}&timezone=Europe/Paris`);
      expect(res.body).toEqual(
        ['15:00', '16:00', '17:00', '19:00', '20:00', '21:00', '22:00'].map((t) => ({
          time: `${MONDAY}T${t}:00+0200`,
          slotsAvailable: 1,
        })),
      );
    });

    it('steps on slotInterval and keeps the padding inside the working hours', async () => {
      const { type } = await service({ slotInterval: 30, paddingBefore: 15, paddingAfter: 15 });
      const res = await times(`appointmentTypeID=${type}&date=${MONDAY}`);
      // 09:00 would need 08:45; 11:00 would end 12:15 with its padding.
      expect(res.body).toEqual(
        ['09:30', '10:00', '10:30', '13:30', '14:00', '14:30', '15:00', '15:30'].map((t) =>
          slot(t),
        ),
      );
    });

    it('leaves out the time of appointments (with their padding) and blocks; ignoreAppointmentIDs frees it', async () => {
      const { calendar, type } = await service();
      const booked = await insertAppointment(app, {
        accountId: account.id,
        appointmentTypeId: type,
        calendarId: calendar,
        start: `${MONDAY}T10:00:00-04:00`,
        minutes: 60,
        paddingAfter: 1,
      });
      await insertAppointment(app, {
        accountId: account.id,
        appointmentTypeId: type,
        calendarId: calendar,
        start: `${MONDAY}T09:00:00-04:00`,
        minutes: 60,
        canceled: true,
      });
      const block = await api.post('/blocks', {
        calendarID: calendar,
        start: `${MONDAY}T13:00`,
        end: `${MONDAY}T14:30`,
        notes: 'Staff meeting',
      });
      expect(block.status).toBe(200);
      const query = `appointmentTypeID=${type}&date=${MONDAY}`;
      expect((await times(query)).body).toEqual(['09:00', '15:00', '16:00'].map((t) => slot(t)));
      expect((await times(`${query}&ignoreAppointmentIDs[]=${booked}`)).body).toEqual(
        ['09:00', '10:00', '11:00', '15:00', '16:00'].map((t) => slot(t)),
      );
      await api.delete(`/blocks/${(block.body as { id: number }).id}`);
      expect((await times(query)).body).toEqual(
        ['09:00', '13:00', '14:00', '15:00', '16:00'].map((t) => slot(t)),
      );
    });

    it('lengthens the span by the addons chosen', async () => {
      const addon = await createAddon(api, { duration: 30 });
      const { type } = await service({ addonIDs: [addon] });
      const base = `appointmentTypeID=${type}&date=${MONDAY}`;
      for (const query of [
        `${base}&addonIDs[]=${addon}`,
        `${base}&addonIDs=${addon}`,
        `${base}&addonIDs[0]=${addon}`,
      ])
        expect((await times(query)).body).toEqual(
          ['09:00', '10:00', '13:00', '14:00', '15:00'].map((t) => slot(t)),
        );
    });

    it('counts the calendars that can take each time, without calendarID', async () => {
      const first = await createCalendar(api, { timezone: 'America/New_York', hours: NY_HOURS });
      const second = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: { monday: [{ start: '11:00', end: '14:00' }] },
      });
      const type = await createAppointmentType(api, {
        duration: 60,
        calendarIDs: [first, second],
        ...HORIZON,
      });
      const res = await times(`appointmentTypeID=${type}&date=${MONDAY}&timezone=America/New_York`);
      expect(res.body).toEqual([
        slot('09:00'),
        slot('10:00'),
        slot('11:00', 2),
        slot('12:00'),
        slot('13:00', 2),
        slot('14:00'),
        slot('15:00'),
        slot('16:00'),
      ]);
    });

    it('offers nothing before minHoursInAdvance or after maxDaysInAdvance', async () => {
      const { type } = await service({ maxDaysInAdvance: 30 });
      expect((await times(`appointmentTypeID=${type}&date=${MONDAY}`)).body).toEqual([]);
    });

    it('offers no time on a closed override, other hours on another', async () => {
      const calendar = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: NY_HOURS,
        overrides: { [MONDAY]: [], '2030-06-04': [{ start: '18:00', end: '19:00' }] },
      });
      const type = await createAppointmentType(api, {
        duration: 60,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      expect((await times(`appointmentTypeID=${type}&date=${MONDAY}`)).body).toEqual([]);
      expect((await times(`appointmentTypeID=${type}&date=2030-06-04`)).body).toEqual([
        slot('18:00', 1, '2030-06-04'),
      ]);
    });

    it('offers no local time that a DST change skips', async () => {
      const calendar = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: { sunday: [{ start: '01:00', end: '04:00' }] },
      });
      const type = await createAppointmentType(api, {
        duration: 30,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      // 2030-03-10: 02:00 EST jumps to 03:00 EDT.
      expect((await times(`appointmentTypeID=${type}&date=2030-03-10`)).body).toEqual([
        { time: '2030-03-10T01:00:00-0500', slotsAvailable: 1 },
        { time: '2030-03-10T01:30:00-0500', slotsAvailable: 1 },
        { time: '2030-03-10T03:00:00-0400', slotsAvailable: 1 },
        { time: '2030-03-10T03:30:00-0400', slotsAvailable: 1 },
      ]);
      // 2030-11-03: 01:00-02:00 happens twice; each instant is offered once.
      expect((await times(`appointmentTypeID=${type}&date=2030-11-03`)).body).toEqual([
        { time: '2030-11-03T01:00:00-0400', slotsAvailable: 1 },
        { time: '2030-11-03T01:30:00-0400', slotsAvailable: 1 },
        { time: '2030-11-03T01:00:00-0500', slotsAvailable: 1 },
        { time: '2030-11-03T01:30:00-0500', slotsAvailable: 1 },
        { time: '2030-11-03T02:00:00-0500', slotsAvailable: 1 },
        { time: '2030-11-03T02:30:00-0500', slotsAvailable: 1 },
        { time: '2030-11-03T03:00:00-0500', slotsAvailable: 1 },
        { time: '2030-11-03T03:30:00-0500', slotsAvailable: 1 },
      ]);
    });
  });

  describe('GET /availability/dates', () => {
    it('lists the dates of the month with a bookable time', async () => {
      const calendar = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: NY_HOURS,
        overrides: { '2030-06-10': [] },
      });
      const type = await createAppointmentType(api, {
        duration: 60,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      const res = await api.get(`/availability/dates?appointmentTypeID=${type}&month=2030-06`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { date: '2030-06-03' },
        { date: '2030-06-17' },
        { date: '2030-06-24' },
      ]);
      // Seen from Tokyo, New York's Monday afternoon is Tuesday.
      expect(
        (
          await api.get(
            `/availability/dates?appointmentTypeID=${type}&month=2030-06&timezone=Asia/Tokyo`,
          )
        ).body,
      ).toEqual([
        { date: '2030-06-03' },
        { date: '2030-06-04' },
        { date: '2030-06-17' },
        { date: '2030-06-18' },
        { date: '2030-06-24' },
        { date: '2030-06-25' },
      ]);
    });
  });

  describe('class types', () => {
    let calendar: number;
    let yoga: number;
    let sessions: number[];

    beforeAll(async () => {
      calendar = await createCalendar(api, {
        name: 'Studio',
        timezone: 'America/New_York',
        hours: NY_HOURS,
      });
      yoga = await createAppointmentType(api, {
        name: 'Yoga',
        duration: 60,
        type: 'class',
        classSize: 2,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      sessions = [];
      for (const datetime of [`${MONDAY}T07:00`, `${MONDAY}T18:00`, '2030-06-05T07:00']) {
        const res = await api.post('/classes', {
          appointmentTypeID: yoga,
          calendarID: calendar,
          datetime,
        });
        sessions.push((res.body as { id: number }).id);
      }
      for (let seat = 0; seat < 2; seat++)
        await insertAppointment(app, {
          accountId: account.id,
          appointmentTypeId: yoga,
          calendarId: calendar,
          classId: sessions[1],
          start: `${MONDAY}T18:00:00-04:00`,
          minutes: 60,
        });
      await insertAppointment(app, {
        accountId: account.id,
        appointmentTypeId: yoga,
        calendarId: calendar,
        classId: sessions[0],
        start: `${MONDAY}T07:00:00-04:00`,
        minutes: 60,
      });
    });

    it('offers the sessions with free seats as times and dates', async () => {
      expect((await times(`appointmentTypeID=${yoga}&date=${MONDAY}`)).body).toEqual([
        slot('07:00', 1),
      ]);
      expect(
        (await api.get(`/availability/dates?appointmentTypeID=${yoga}&month=2030-06`)).body,
      ).toEqual([{ date: '2030-06-03' }, { date: '2030-06-05' }]);
    });

    it('lists the sessions in the reference shape; full ones with includeUnavailable', async () => {
      const session = (id: number, time: string, slotsAvailable: number) => ({
        id,
        appointmentTypeID: yoga,
        calendarID: calendar,
        name: 'Yoga',
        time,
        calendar: 'Studio',
        duration: 60,
        isSeries: false,
        slots: 2,
        slotsAvailable,
      });
      const query = `appointmentTypeID=${yoga}&month=2030-06`;
      const res = await api.get(`/availability/classes?${query}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        session(sessions[0], ny('07:00'), 1),
        session(sessions[2], ny('07:00', '2030-06-05'), 2),
      ]);
      expect(
        (await api.get(`/availability/classes?${query}&includeUnavailable=true`)).body,
      ).toEqual([
        session(sessions[0], ny('07:00'), 1),
        session(sessions[1], ny('18:00'), 0),
        session(sessions[2], ny('07:00', '2030-06-05'), 2),
      ]);
      expect(
        (
          await api.get(
            `/availability/classes?appointmentTypeID=${yoga}&minDate=2030-06-04&timezone=UTC`,
          )
        ).body,
      ).toEqual([session(sessions[2], '2030-06-05T11:00:00+0000', 2)]);
    });

    it('reads minDate and maxDate inclusively; month wins over them, as the reference says', async () => {
      const ids = async (params: string) =>
        (
          (await api.get(`/availability/classes?appointmentTypeID=${yoga}&${params}`)).body as {
            id: number;
          }[]
        ).map((c) => c.id);
      // New York's days (the account's zone): Monday's sessions, then Wednesday's.
      expect(await ids(`minDate=${MONDAY}&maxDate=${MONDAY}`)).toEqual([sessions[0]]);
      expect(await ids(`minDate=2030-06-04&maxDate=2030-06-05`)).toEqual([sessions[2]]);
      expect(await ids(`maxDate=${MONDAY}&includeUnavailable=true`)).toEqual([
        sessions[0],
        sessions[1],
      ]);
      // "The earliest date to return classes for. This will be over-ridden by month."
      expect(await ids(`month=2030-06&minDate=2030-06-04&maxDate=2030-06-04`)).toEqual([
        sessions[0],
        sessions[2],
      ]);
      expect(await ids(`month=2030-07&minDate=${MONDAY}`)).toEqual([]);
      expect(await api.get(`/availability/classes?month=2030-06&maxDate=someday`)).toMatchObject(
        apiError(400, 'invalid_max_date', 'The date "someday" is invalid.'),
      );
    });

    it('lists the sessions of private class types only with includePrivate=true', async () => {
      const hidden = await createAppointmentType(api, {
        name: 'Private yoga',
        duration: 60,
        type: 'class',
        classSize: 1,
        private: true,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      const privateSession = (
        (
          await api.post('/classes', {
            appointmentTypeID: hidden,
            calendarID: calendar,
            datetime: '2030-06-06T07:00',
          })
        ).body as { id: number }
      ).id;
      const ids = async (params: string) =>
        ((await api.get(`/availability/classes?month=2030-06${params}`)).body as { id: number }[])
          .map((c) => c.id)
          .sort((a, b) => a - b);
      expect(await ids('')).toEqual([sessions[0], sessions[2]]);
      expect(await ids('&includePrivate=false')).toEqual([sessions[0], sessions[2]]);
      expect(await ids('&includePrivate=true')).toEqual(
        [sessions[0], sessions[2], privateSession].sort((a, b) => a - b),
      );
      // Naming the private type is not asking for private classes: the flag is.
      expect(await ids(`&appointmentTypeID=${hidden}`)).toEqual([]);
      expect(await ids(`&appointmentTypeID=${hidden}&includePrivate=1`)).toEqual([privateSession]);
      expect(await api.get('/availability/classes?includePrivate=maybe')).toMatchObject(
        apiError(400, 'invalid_include_private', 'Invalid "includePrivate" attribute value.'),
      );
      // Its time is still offered to whoever has the link (private is about listings).
      expect((await times(`appointmentTypeID=${hidden}&date=2030-06-06`)).body).toEqual([
        slot('07:00', 1, '2030-06-06'),
      ]);
    });

    it('keeps the calendar busy during a session for services', async () => {
      const room = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: { monday: [{ start: '09:00', end: '13:00' }] },
      });
      const pilates = await createAppointmentType(api, {
        duration: 90,
        type: 'class',
        classSize: 5,
        calendarIDs: [room],
        ...HORIZON,
      });
      await api.post('/classes', {
        appointmentTypeID: pilates,
        calendarID: room,
        datetime: `${MONDAY}T10:00`,
      });
      const service = await createAppointmentType(api, {
        duration: 60,
        calendarIDs: [room],
        ...HORIZON,
      });
      expect((await times(`appointmentTypeID=${service}&date=${MONDAY}`)).body).toEqual([
        slot('09:00'),
        slot('12:00'),
      ]);
    });
  });

  describe('GET /availability/dates against /times', () => {
    it("lists exactly the dates on which /times has a time, in the calendar's zone and others", async () => {
      // Hours every day, a day off, one appointment: seen from each zone, a New York day's first
      // time may be on one date and its later times on the next.
      const everyDay = Object.fromEntries(
        ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
          d,
          [{ start: '08:00', end: '20:00' }],
        ]),
      );
      const calendar = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: everyDay,
        overrides: { '2030-06-12': [] },
      });
      const type = await createAppointmentType(api, {
        duration: 60,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      for (const zone of [
        '',
        '&timezone=America/New_York',
        '&timezone=Asia/Tokyo',
        '&timezone=Pacific/Kiritimati',
      ]) {
        const base = `appointmentTypeID=${type}${zone}`;
        const dates = (await api.get(`/availability/dates?${base}&month=2030-06`)).body as {
          date: string;
        }[];
        const withTimes: string[] = [];
        for (let day = 1; day <= 30; day++) {
          const date = `2030-06-${String(day).padStart(2, '0')}`;
          if (((await times(`${base}&date=${date}`)).body as unknown[]).length > 0)
            withTimes.push(date);
        }
        expect({ zone, dates: dates.map((d) => d.date) }).toEqual({ zone, dates: withTimes });
        expect(withTimes.length).toBeGreaterThan(25);
      }
    });
  });

  describe("the scheduling page's date step (AvailableDatesWithTimesQuery)", () => {
    /** The query's answer, and what `/availability/dates` and `/times` answer for the same. */
    async function both(type: number, month: string, date: string, extra = '') {
      const owner = await app.get(DataSource).getRepository(Account).findOneByOrFail({
        id: account.id,
      });
      const timezone = /timezone=([^&]+)/.exec(extra)?.[1];
      const calendarID = /calendarID=(\d+)/.exec(extra)?.[1];
      const request = {
        appointmentTypeID: type,
        calendarID: calendarID === undefined ? undefined : Number(calendarID),
        timezone: timezone === undefined ? undefined : decodeURIComponent(timezone),
        month,
        date,
      };
      const read = await app
        .get(QueryBus)
        .execute(new AvailableDatesWithTimesQuery(owner, request, Date.now()));
      const base = `appointmentTypeID=${type}${extra}`;
      return {
        read,
        answer: { dates: read.dates, times: read.times },
        api: {
          dates: (await api.get(`/availability/dates?${base}&month=${month}`)).body as unknown,
          times: (await api.get(`/availability/times?${base}&date=${date}`)).body as unknown,
        },
      };
    }

    it("answers the month's dates and the day's times as /dates and /times do", async () => {
      const { type } = await service();
      const second = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: NY_HOURS,
      });
      const shared = await createAppointmentType(api, {
        duration: 60,
        calendarIDs: [(await service()).calendar, second],
        ...HORIZON,
      });
      await insertAppointment(app, {
        accountId: account.id,
        appointmentTypeId: shared,
        calendarId: second,
        start: `${MONDAY}T10:00:00-04:00`,
        minutes: 60,
      });
      const cases: [number, string, string, string][] = [
        [type, '2030-06', MONDAY, ''],
        [type, '2030-06', '2030-06-04', ''],
        [shared, '2030-06', MONDAY, ''],
        [shared, '2030-06', MONDAY, `&calendarID=${second}`],
        // Seen from Tokyo, New York's Monday afternoon is Tuesday; the month's last day too.
        [type, '2030-06', '2030-06-04', '&timezone=Asia%2FTokyo'],
        [type, '2030-07', '2030-07-02', '&timezone=Asia%2FTokyo'],
        // A date outside the month: its own day's times.
        [type, '2030-07', MONDAY, ''],
      ];
      // What it was asked about: the type, its calendars (ascending id) and its live addons.
      const addon = await createAddon(api, { name: 'Extra care', duration: 15 });
      await api.put(`/appointment-types/${shared}`, { addonIDs: [addon] });
      const { read } = await both(shared, '2030-06', MONDAY);
      expect(read.type).toMatchObject({ id: shared, duration: 60, active: true });
      expect(read.calendarIds).toContain(second);
      const view = (await api.get(`/appointment-types/${shared}`)).body as {
        calendarIDs: number[];
        addonIDs: number[];
      };
      expect({ calendarIds: read.calendarIds, addonIds: read.addonIds }).toEqual({
        calendarIds: view.calendarIDs,
        addonIds: [addon],
      });
      expect(view.addonIDs).toEqual([addon]);
      for (const [id, month, date, extra] of cases) {
        const { answer, api: expected } = await both(id, month, date, extra);
        expect({ month, date, extra, ...answer }).toEqual({ month, date, extra, ...expected });
      }
      // Two calendars: the account's zone; one of them busy at 10:00 in New York.
      expect((await both(shared, '2030-06', MONDAY)).answer.times).toContainEqual({
        time: `${MONDAY}T09:00:00-0500`,
        slotsAvailable: 1,
      });
    });

    it("answers a class type's sessions with their free seats as /dates and /times do", async () => {
      const calendar = await createCalendar(api, {
        timezone: 'America/New_York',
        hours: NY_HOURS,
      });
      const yoga = await createAppointmentType(api, {
        duration: 60,
        type: 'class',
        classSize: 3,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      for (const datetime of [`${MONDAY}T07:00`, `${MONDAY}T18:00`, '2030-06-05T07:00'])
        await api.post('/classes', { appointmentTypeID: yoga, calendarID: calendar, datetime });
      const { answer, api: expected } = await both(yoga, '2030-06', MONDAY);
      expect(answer).toEqual(expected);
      expect(answer.times).toEqual([slot('07:00', 3), slot('18:00', 3)]);
    });
  });

  describe('POST /availability/check-times', () => {
    it('answers one object or an array with valid and the reason booking would give', async () => {
      const { calendar, type } = await service({ minHoursInAdvance: 48 });
      const soon = new Date(Date.now() + 3600_000).toISOString();
      const items = [
        { datetime: ny('10:00'), appointmentTypeID: type, calendarID: calendar },
        { datetime: `${MONDAY}T10:00`, appointmentTypeID: type },
        { datetime: ny('12:00'), appointmentTypeID: type, calendarID: calendar },
        { datetime: ny('12:00'), appointmentTypeID: type },
        { datetime: soon, appointmentTypeID: type },
        { datetime: '2045-06-05T10:00:00-0400', appointmentTypeID: type },
        { datetime: 'tomorrow', appointmentTypeID: type },
        { datetime: '2030-03-10T02:30', appointmentTypeID: type, calendarID: calendar },
        { appointmentTypeID: type },
        { datetime: ny('10:00') },
        { datetime: ny('10:00'), appointmentTypeID: 999999999 },
        { datetime: ny('10:00'), appointmentTypeID: type, calendarID: 999999999 },
      ];
      const res = await api.post('/availability/check-times', items);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { ...items[0], valid: true },
        { ...items[1], valid: true },
        { ...items[2], valid: false, reason: 'not_available' },
        { ...items[3], valid: false, reason: 'no_available_calendar' },
        { ...items[4], valid: false, reason: 'not_available_min_hours_in_advance' },
        { ...items[5], valid: false, reason: 'not_available_max_days_in_advance' },
        { ...items[6], valid: false, reason: 'invalid_datetime' },
        { ...items[7], valid: false, reason: 'not_available' },
        { ...items[8], valid: false, reason: 'required_datetime' },
        { ...items[9], valid: false, reason: 'required_appointment_type_id' },
        { ...items[10], valid: false, reason: 'invalid_appointment_type' },
        { ...items[11], valid: false, reason: 'invalid_calendar' },
      ]);
      const single = await api.post('/availability/check-times', items[0]);
      expect(single).toMatchObject({ status: 200, body: [{ ...items[0], valid: true }] });
    });

    it('checks a class time against its sessions and seats', async () => {
      const calendar = await createCalendar(api, { timezone: 'America/New_York' });
      const yoga = await createAppointmentType(api, {
        duration: 60,
        type: 'class',
        classSize: 1,
        calendarIDs: [calendar],
        ...HORIZON,
      });
      await api.post('/classes', {
        appointmentTypeID: yoga,
        calendarID: calendar,
        datetime: `${MONDAY}T07:00`,
      });
      const res = await api.post('/availability/check-times', [
        { datetime: ny('07:00'), appointmentTypeID: yoga, calendarID: calendar },
        { datetime: ny('08:00'), appointmentTypeID: yoga, calendarID: calendar },
      ]);
      expect((res.body as { valid: boolean }[]).map((r) => r.valid)).toEqual([true, false]);
    });

    it.each([
      ['a string', '"2030-06-03T10:00"'],
      ['an array of strings', '["2030-06-03T10:00"]'],
      ['an empty array', '[]'],
    ])('refuses %s as the body', async (_, payload) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/availability/check-times',
        headers: { authorization: account.authorization, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status_code: 400,
        error: 'bad_request',
        message: 'Expected a JSON object.',
      });
    });

    it('refuses more than 100 times at once', async () => {
      const { type } = await service();
      const items = Array.from({ length: 101 }, () => ({
        datetime: ny('10:00'),
        appointmentTypeID: type,
      }));
      expect(await api.post('/availability/check-times', items)).toMatchObject(
        apiError(400, 'bad_request', 'At most 100 times can be checked at once.'),
      );
    });
  });

  describe('bad parameters', () => {
    let type: number;
    let calendar: number;
    let strangerType: number;
    let otherCalendar: number;
    let addon: number;

    beforeAll(async () => {
      ({ type, calendar } = await service());
      otherCalendar = await createCalendar(api);
      addon = await createAddon(api);
      strangerType = await createAppointmentType(apiClient(app, await createAccount(app)));
    });

    const cases: [string, () => string, number, string, () => string][] = [
      [
        'no appointmentTypeID',
        () => `times?date=${MONDAY}`,
        400,
        'required_appointment_type_id',
        () => 'The parameter "appointmentTypeID" is required.',
      ],
      [
        'a non-numeric appointmentTypeID',
        () => `times?date=${MONDAY}&appointmentTypeID=abc`,
        400,
        'invalid_appointment_type_id',
        () => 'Invalid "appointmentTypeID" attribute value.',
      ],
      [
        'an unknown type',
        () => `times?date=${MONDAY}&appointmentTypeID=999999999`,
        400,
        'invalid_appointment_type',
        () => 'The appointment type "999999999" does not exist.',
      ],
      [
        "another account's type",
        () => `times?date=${MONDAY}&appointmentTypeID=${strangerType}`,
        403,
        'forbidden',
        () => 'Forbidden',
      ],
      [
        'an unknown calendar',
        () => `times?date=${MONDAY}&appointmentTypeID=${type}&calendarID=999999999`,
        400,
        'invalid_calendar',
        () => 'The calendar "999999999" does not exist.',
      ],
      [
        'a calendar without the type',
        () => `times?date=${MONDAY}&appointmentTypeID=${type}&calendarID=${otherCalendar}`,
        400,
        'invalid_calendar',
        () => `The calendar "${otherCalendar}" does not exist.`,
      ],
      [
        'an unknown zone',
        () => `times?date=${MONDAY}&appointmentTypeID=${type}&timezone=Mars/Base`,
        400,
        'invalid_timezone',
        () => 'Invalid timezone "Mars/Base".',
      ],
      [
        'an addon the type does not offer',
        () => `times?date=${MONDAY}&appointmentTypeID=${type}&addonIDs[]=${addon}`,
        400,
        'invalid_addon',
        () => `The addon "${addon}" is not offered with appointment type "${type}".`,
      ],
      [
        'an unknown addon',
        () => `times?date=${MONDAY}&appointmentTypeID=${type}&addonIDs[]=999999999`,
        400,
        'invalid_addon',
        () => 'The addon "999999999" does not exist.',
      ],
      [
        'no date',
        () => `times?appointmentTypeID=${type}`,
        400,
        'required_date',
        () => 'The parameter "date" is required.',
      ],
      [
        'a bad date',
        () => `times?appointmentTypeID=${type}&date=2030-02-30`,
        400,
        'invalid_date',
        () => 'The date "2030-02-30" is invalid.',
      ],
      [
        'a date in another shape',
        () => `times?appointmentTypeID=${type}&date=06/03/2030`,
        400,
        'invalid_date',
        () => 'The date "06/03/2030" is invalid.',
      ],
      [
        'no month',
        () => `dates?appointmentTypeID=${type}`,
        400,
        'required_month',
        () => 'The parameter "month" is required.',
      ],
      [
        'a bad month',
        () => `dates?appointmentTypeID=${type}&month=2030-13`,
        400,
        'invalid_month',
        () => 'The month "2030-13" is invalid.',
      ],
      [
        'a month in another shape',
        () => `dates?appointmentTypeID=${type}&month=June`,
        400,
        'invalid_month',
        () => 'The month "June" is invalid.',
      ],
      [
        'a service type for classes',
        () => `classes?appointmentTypeID=${type}`,
        400,
        'invalid_appointment_type',
        () => `The appointment type "${type}" is not a class.`,
      ],
      [
        'a bad class minDate',
        () => `classes?minDate=soon`,
        400,
        'invalid_min_date',
        () => 'The date "soon" is invalid.',
      ],
      [
        'a bad includeUnavailable',
        () => `classes?includeUnavailable=maybe`,
        400,
        'invalid_include_unavailable',
        () => 'Invalid "includeUnavailable" attribute value.',
      ],
      [
        'a bad ignoreAppointmentIDs',
        () => `times?appointmentTypeID=${type}&date=${MONDAY}&ignoreAppointmentIDs=x`,
        400,
        'invalid_ignore_appointment_ids',
        () => 'Invalid "ignoreAppointmentIDs" attribute value.',
      ],
    ];

    it.each(cases)('refuses %s', async (_, path, status, error, message) => {
      expect(await api.get(`/availability/${path()}`)).toMatchObject(
        apiError(status, error, message()),
      );
    });

    it('answers for the calendar asked for only when it is the caller’s', async () => {
      const stranger = apiClient(app, await createAccount(app));
      expect(await stranger.get(`/availability/classes?calendarID=${calendar}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
    });
  });
});
