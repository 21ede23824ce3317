import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { ZONE } from './pages-fixtures';

const DATE = '2030-06-03';
const HOURS = { monday: [{ start: '09:00', end: '17:00' }] };
const at = (clock: string) => `${DATE}T${clock}:00-0400`;
const NETWORK_FULL =
  'Too many times are being held from your network right now, so this one cannot be held for you.';
const DAY_FULL =
  "Many of this day's times are being held by other visitors right now, so this one cannot be held for you.";

interface Business {
  api: ApiClient;
  accountId: number;
  type: number;
  calendars: number[];
}

/**
 * Holds from the scheduling page are rationed (docs/pages.md, Holds from the pages): one per page
 * session, a few per network, and at most a share of a day's times; over a limit the page says so
 * and offers the time without a hold, and the booking still goes through.
 */
describe('Scheduling page: holds rationed per visitor, network and day (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let ip = 0;
  /** A network of its own for each visitor that needs one (TEST-NET-2, then TEST-NET-3). */
  const nextAddress = () => {
    ip++;
    return ip < 255 ? `198.51.100.${ip}` : `203.0.113.${ip - 254}`;
  };

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
  });
  afterAll(() => app.close());

  /** Two calendars open Monday 09:00–17:00; a 60-minute type offered every 30 minutes. */
  async function business(type: Record<string, unknown> = {}): Promise<Business> {
    const account = await createAccount(app, { timezone: ZONE });
    const api = apiClient(app, account);
    const calendars = [
      await createCalendar(api, { name: 'Ann', timezone: ZONE, hours: HOURS }),
      await createCalendar(api, { name: 'Bob', timezone: ZONE, hours: HOURS }),
    ];
    const typeId = await createAppointmentType(api, {
      name: 'Fitting',
      duration: 60,
      slotInterval: 30,
      calendarIDs: calendars,
      maxDaysInAdvance: 3650,
      ...type,
    });
    return { api, accountId: account.id, type: typeId, calendars };
  }

  const timesOf = async (b: Business): Promise<string[]> => {
    const res = await b.api.get(`/availability/times?appointmentTypeID=${b.type}&date=${DATE}`);
    expect(res.status).toBe(200);
    return (res.body as { time: string }[]).map((t) => t.time.slice(11, 16));
  };

  const query = (b: Business) =>
    `appointmentType=${b.type}&date=${DATE}&timezone=${encodeURIComponent(ZONE)}`;

  /** A visitor: a page session (the cookie and its form token) from one address. */
  async function visitor(b: Business, address = nextAddress()) {
    const page = await app.inject({
      method: 'GET',
      url: `/schedule/${b.accountId}?${query(b)}`,
      remoteAddress: address,
    });
    expect(page.statusCode).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)![1];
    const cookie = String(page.headers['set-cookie']).split(';')[0];
    const post = (path: string, form: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: `/schedule/${b.accountId}${path}`,
        remoteAddress: address,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        payload: new URLSearchParams({
          csrf,
          appointmentType: String(b.type),
          date: DATE,
          timezone: ZONE,
          ...form,
        }).toString(),
      });
    return {
      address,
      hold: (clock: string) => post('/hold', { datetime: at(clock) }),
      get: (url: string) =>
        app.inject({ method: 'GET', url, remoteAddress: address, headers: { cookie } }),
      book: (datetime: string, hold?: string) =>
        post('', {
          datetime,
          ...(hold ? { hold } : {}),
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: `ada-${process.pid}-${ip}@example.test`,
        }),
    };
  }

  const livePageHolds = async (b: Business): Promise<{ startsAt: Date }[]> =>
    db.query(
      `SELECT starts_at AS startsAt FROM slot_holds
        WHERE account_id = ? AND origin = 'page' AND expires_at > ? ORDER BY starts_at`,
      [b.accountId, new Date()],
    );

  const heldToken = (location: string) => new URL(location, 'http://x').searchParams.get('hold');
  const unheldLink = (body: string) =>
    /<a href="([^"]+)">Continue without holding/.exec(body)?.[1].replace(/&amp;/g, '&');

  it('holds one time per page session: choosing another time releases the first', async () => {
    const b = await business();
    const ada = await visitor(b);
    const first = await ada.hold('09:00');
    expect(first.statusCode).toBe(303);
    expect(heldToken(first.headers.location as string)).toMatch(/^[\w-]{43}$/);
    const second = await ada.hold('11:00');
    expect(second.statusCode).toBe(303);
    const held = await livePageHolds(b);
    expect(held.map((h) => h.startsAt.toISOString())).toEqual(['2030-06-03T15:00:00.000Z']);
    // The first time's calendar is free again: both calendars offer 09:00.
    const slots = await b.api.get(`/availability/times?appointmentTypeID=${b.type}&date=${DATE}`);
    expect((slots.body as { time: string; slotsAvailable: number }[])[0]).toEqual({
      time: at('09:00'),
      slotsAvailable: 2,
    });
  });

  it('holds at most three times at once from one network; past that it offers the time unheld, and it books', async () => {
    const b = await business();
    const address = nextAddress();
    for (const clock of ['09:00', '10:00', '11:00'])
      expect((await (await visitor(b, address)).hold(clock)).statusCode).toBe(303);
    const fourth = await visitor(b, address);
    const refused = await fourth.hold('12:00');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain(NETWORK_FULL);
    expect(await livePageHolds(b)).toHaveLength(3);
    // Another network is not held back.
    expect((await (await visitor(b)).hold('12:00')).statusCode).toBe(303);

    const link = unheldLink(refused.body);
    expect(link).toBeDefined();
    expect(new URL(link!, 'http://x').searchParams.get('datetime')).toBe(at('12:00'));
    expect(new URL(link!, 'http://x').searchParams.get('hold')).toBeNull();
    const details = await fourth.get(link!);
    expect(details.statusCode).toBe(200);
    expect(details.body).toContain(
      'This time is not held for you: someone else may book it before you finish.',
    );
    // 12:00 is held on one calendar by the other network; the other calendar takes the booking.
    const booked = await fourth.book(at('12:00'));
    expect(booked.statusCode).toBe(303);
    expect(booked.headers.location).toMatch(/^\/confirmation\/\d+-[0-9a-f]{32}\?done=booked$/);
  });

  it("a round-robin type's page holds and bookings take the calendars in turn; a collective one's hold all", async () => {
    const b = await business({ assignment: 'round-robin' });
    const calendarOf = async (location: string) => {
      const [row] = await db.query<{ calendarId: number }[]>(
        'SELECT calendar_id AS calendarId FROM appointments WHERE id = ?',
        [Number(/confirmation\/(\d+)-/.exec(location)![1])],
      );
      return Number(row.calendarId);
    };
    const taken: number[] = [];
    for (const clock of ['09:00', '10:00', '11:00']) {
      const guest = await visitor(b);
      const held = await guest.hold(clock);
      expect(held.statusCode).toBe(303);
      const booked = await guest.book(at(clock), heldToken(held.headers.location as string)!);
      expect(booked.statusCode).toBe(303);
      taken.push(await calendarOf(booked.headers.location as string));
    }
    expect(taken).toEqual([b.calendars[0], b.calendars[1], b.calendars[0]]);

    const team = await business({ collective: true });
    const held = await (await visitor(team)).hold('13:00');
    expect(held.statusCode).toBe(303);
    // Both calendars held: 13:00 (and 12:30, which overlaps it) offered to nobody else, the
    // member's (not the host's) included, for any type.
    expect(await timesOf(team)).not.toContain('13:00');
    const single = await createAppointmentType(team.api, {
      name: 'Alone',
      duration: 60,
      slotInterval: 30,
      calendarIDs: [team.calendars[1]],
      maxDaysInAdvance: 3650,
    });
    const member = await team.api.get(
      `/availability/times?appointmentTypeID=${single}&date=${DATE}`,
    );
    const memberTimes = (member.body as { time: string }[]).map((t) => t.time.slice(11, 16));
    expect(memberTimes).toContain('11:00');
    expect(memberTimes).not.toContain('12:30');
    expect(memberTimes).not.toContain('13:00');
  });

  it('counts an IPv6 network as its /64', async () => {
    const b = await business({ name: 'IPv6' });
    await b.api.put('/settings', { pageHoldsPerAddress: 1 });
    expect((await (await visitor(b, '2001:db8:0:1::a')).hold('09:00')).statusCode).toBe(303);
    const same = await (await visitor(b, '2001:db8:0:1:ffff::b')).hold('10:00');
    expect(same.statusCode).toBe(429);
    expect(same.body).toContain(NETWORK_FULL);
    expect((await (await visitor(b, '2001:db8:0:2::a')).hold('10:00')).statusCode).toBe(303);
  });

  it('never lets page holds from many networks take more than half of a day; a new visitor still books', async () => {
    const b = await business();
    const before = await timesOf(b);
    expect(before).toHaveLength(15);
    // An attacker with a new network per hold, always taking the first time still offered.
    const refusals: string[] = [];
    for (let attempt = 0; attempt < 40 && refusals.length < 5; attempt++) {
      const offered = await timesOf(b);
      const clock = offered[refusals.length % offered.length];
      const res = await (await visitor(b)).hold(clock);
      if (res.statusCode === 429) refusals.push(res.body);
      else expect(res.statusCode).toBe(303);
    }
    expect(refusals.length).toBe(5);
    for (const body of refusals) expect(body).toContain(DAY_FULL);
    const after = await timesOf(b);
    // 15 times: page holds may take 7 of them (50%, rounded down), never more.
    expect(before.length - after.length).toBeLessThanOrEqual(7);
    expect(before.length - after.length).toBeGreaterThanOrEqual(6);

    // A second visitor is refused a hold of a time one calendar alone still offers (holding it
    // would take it from the day), but books it.
    const second = await visitor(b);
    const slots = await b.api.get(`/availability/times?appointmentTypeID=${b.type}&date=${DATE}`);
    const single = (slots.body as { time: string; slotsAvailable: number }[]).find(
      (t) => t.slotsAvailable === 1,
    );
    expect(single).toBeDefined();
    const clock = single!.time.slice(11, 16);
    const refused = await second.hold(clock);
    expect(refused.statusCode).toBe(429);
    const details = await second.get(unheldLink(refused.body)!);
    expect(details.statusCode).toBe(200);
    const booked = await second.book(at(clock));
    expect(booked.statusCode).toBe(303);
    expect(booked.headers.location).toMatch(/\?done=booked$/);
  });

  it('never lets one hold close a day a type allows one booking of', async () => {
    const b = await business({ name: 'Once a day', maxPerDay: 1 });
    const refused = await (await visitor(b)).hold('09:00');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain(DAY_FULL);
    expect(await livePageHolds(b)).toHaveLength(0);
    expect(await timesOf(b)).toHaveLength(15);
  });

  it("counts a class's seats: page holds take at most half of the day's seats", async () => {
    const b = await business({ name: 'Yoga', type: 'class', classSize: 3, slotInterval: null });
    for (const datetime of [`${DATE}T10:00`, `${DATE}T15:00`])
      expect(
        (
          await b.api.post('/classes', {
            appointmentTypeID: b.type,
            calendarID: b.calendars[0],
            datetime,
          })
        ).status,
      ).toBe(200);
    // 6 seats: page holds may take 3 of them, from any networks and sessions.
    for (const clock of ['10:00', '10:00', '15:00'])
      expect((await (await visitor(b)).hold(clock)).statusCode).toBe(303);
    const refused = await (await visitor(b)).hold('15:00');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain(DAY_FULL);
    expect(await livePageHolds(b)).toHaveLength(3);
  });

  it('goes straight to the details, holding nothing, when the account turns page holds off', async () => {
    const b = await business({ name: 'No holds' });
    await b.api.put('/settings', { pageHoldDayShare: 0 });
    const res = await (await visitor(b)).hold('09:00');
    expect(res.statusCode).toBe(303);
    const location = new URL(res.headers.location as string, 'http://x');
    expect(location.searchParams.get('datetime')).toBe(at('09:00'));
    expect(location.searchParams.get('hold')).toBeNull();
    expect(await livePageHolds(b)).toHaveLength(0);
  });

  it('lets the share be set: at 100% a day may be held whole, by many networks', async () => {
    const b = await business({ name: 'All in' });
    await b.api.put('/settings', { pageHoldDayShare: 100 });
    for (let i = 0; i < 30; i++) {
      const offered = await timesOf(b);
      if (offered.length === 0) break;
      expect((await (await visitor(b)).hold(offered[0])).statusCode).toBe(303);
    }
    expect(await timesOf(b)).toEqual([]);
  });
});
