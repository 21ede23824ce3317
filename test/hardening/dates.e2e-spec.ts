import fc from 'fast-check';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiResponse, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { startApi } from '../support/test-app';
import { type Shop, bookThroughApi, openShop } from '../pages/pages-fixtures';

/**
 * Every route that reads a date, a datetime or a month from outside, API and pages alike, sent
 * years the service does not take (0000, 0001, 1899, 3000, 9999, 275760, random ones outside
 * 1900–2999) and days and times no calendar has (2026-02-30, 2026-13-01, 25:99): never a 5xx, the
 * field's usual refusal (the answer it gives `2026-13-45`), and not a row of the account written.
 */

/** Random values per route, besides the fixed cases (`examples`), which always run. */
const RUNS = Number(process.env.DATES_RUNS ?? 12);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Years outside 1900–2999 that a `YYYY` holds. */
const outsideYear = fc
  .oneof(fc.integer({ min: 0, max: 1899 }), fc.integer({ min: 3000, max: 9999 }))
  .map((y) => pad(y, 4));
const anyYear = fc.integer({ min: 1900, max: 2999 }).map((y) => pad(y, 4));
const month = fc.integer({ min: 1, max: 12 }).map((m) => pad(m));
const badMonth = fc.oneof(fc.constant(0), fc.integer({ min: 13, max: 99 })).map((m) => pad(m));
const day = fc.integer({ min: 1, max: 28 }).map((d) => pad(d));
const badDay = fc.oneof(fc.constant(0), fc.integer({ min: 32, max: 99 })).map((d) => pad(d));
const clock = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${pad(h)}:${pad(m)}`);
const badClock = fc
  .oneof(
    fc.tuple(fc.integer({ min: 24, max: 99 }), fc.integer({ min: 0, max: 59 })),
    fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 60, max: 99 })),
  )
  .map(([h, m]) => `${pad(h)}:${pad(m)}`);
/** How clients end a datetime: no offset (the calendar's zone), the API's, ISO's, the extremes. */
const ending = fc.constantFrom('', ':00', ':00-0500', ':00+1400', ':00-12:00', 'Z', ':00.000Z');

const months = fc.oneof(
  fc.tuple(outsideYear, month).map(([y, m]) => `${y}-${m}`),
  fc.tuple(anyYear, badMonth).map(([y, m]) => `${y}-${m}`),
);
const dates = fc.oneof(
  fc.tuple(outsideYear, month, day).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.tuple(anyYear, badMonth, day).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.tuple(anyYear, month, badDay).map(([y, m, d]) => `${y}-${m}-${d}`),
  anyYear.map((y) => `${y}-02-30`),
);
const datetimes = fc.oneof(
  fc.tuple(dates, clock, ending).map(([d, c, e]) => `${d}T${c}${e}`),
  fc
    .tuple(anyYear, month, day, badClock, ending)
    .map(([y, m, d, c, e]) => `${y}-${m}-${d}T${c}${e}`),
);

const EXTREME_YEARS = ['0000', '0001', '1899', '3000', '9999'];
const MONTH_CASES = [
  ...EXTREME_YEARS.map((y) => `${y}-01`),
  '1899-12',
  '3000-01',
  '275760-09',
  '2026-13',
  '2026-00',
];
const DATE_CASES = [
  ...EXTREME_YEARS.map((y) => `${y}-01-01`),
  '1899-12-31',
  '9999-12-31',
  '275760-09-13',
  '2026-02-30',
  '2026-13-01',
  '2026-04-31',
  '2026-13-45',
];
const DATETIME_CASES = [
  ...EXTREME_YEARS.map((y) => `${y}-01-01T10:00`),
  '0000-01-01T10:00:00-0500',
  '1899-12-31T23:59:59Z',
  '3000-01-01T00:00:00+1400',
  '9999-12-31T23:59:59-1200',
  '275760-09-13T00:00:00Z',
  '2026-02-30T10:00',
  '2026-13-01T10:00',
  '2026-03-03T25:99',
  '2026-03-03T24:00:00-0500',
];

type Kind = 'month' | 'date' | 'datetime';
const VALUES: Record<Kind, { cases: string[]; random: fc.Arbitrary<string> }> = {
  month: { cases: MONTH_CASES, random: months },
  date: { cases: DATE_CASES, random: dates },
  datetime: { cases: DATETIME_CASES, random: datetimes },
};

/** What a route answered: the status and the body (parsed JSON for the API, text for pages). */
interface Answer {
  status: number;
  body: unknown;
}

interface DateRoute {
  /** The route and the parameter that carries the value. */
  name: string;
  kind: Kind;
  send(value: string): Promise<Answer>;
  /** What the route answers a value it does not take (for the API: the `2026-13-45` answer). */
  refused(value: string): Answer | ((answer: Answer) => void);
}

const q = encodeURIComponent;

describe('Hardening: dates outside 1900–2999 or no calendar has, on every route (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let shop: Shop;
  let classType: number;
  let coupon: number;
  /** An appointment for the API's routes, and one for the confirmation page's. */
  let booked: { id: number; page: string };
  let pageBooked: { id: number; page: string };
  /** `SELECT … UNION ALL …`: every table of the account, its rows counted and hashed. */
  let fingerprintSql: string;
  let fingerprintTables: number;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    shop = await openShop(app);
    classType = await createAppointmentType(shop.api, {
      name: 'Yoga',
      type: 'class',
      classSize: 5,
      calendarIDs: [shop.calendar],
    });
    const made = await shop.api.post('/coupons', {
      name: 'Spring',
      discountType: 'percentage',
      discountAmount: 10,
    });
    expect(made.status).toBe(200);
    coupon = (made.body as { id: number }).id;
    booked = await bookThroughApi(shop);
    pageBooked = await bookThroughApi(shop, '2030-06-03T11:00:00-0400');
    // Every table with an account's rows: each row's every column, so a change shows as well as
    // an insert. The outbox only by count: its rows are marked dispatched after the answer.
    const columns = await db.query<{ t: string; c: string }[]>(
      `SELECT table_name AS t, column_name AS c FROM information_schema.columns
        WHERE table_schema = DATABASE()
          AND table_name IN (SELECT table_name FROM information_schema.columns
                              WHERE table_schema = DATABASE() AND column_name = 'account_id')
        ORDER BY table_name, ordinal_position`,
    );
    const byTable = new Map<string, string[]>();
    for (const { t, c } of columns) byTable.set(t, [...(byTable.get(t) ?? []), `\`${c}\``]);
    fingerprintTables = byTable.size;
    fingerprintSql = [...byTable]
      .map(([table, cols]) => {
        const hash =
          table === 'outbox'
            ? '0'
            : `COALESCE(BIT_XOR(CRC32(CONCAT_WS('|', ${cols.join(', ')}))), 0)`;
        return `SELECT '${table}' AS t, COUNT(*) AS n, ${hash} AS h FROM \`${table}\` WHERE account_id = ?`;
      })
      .join(' UNION ALL ');
  });
  afterAll(() => app.close());

  async function fingerprint(): Promise<string> {
    const rows = await db.query<{ t: string; n: string; h: string }[]>(
      fingerprintSql,
      Array<number>(fingerprintTables).fill(shop.account.id),
    );
    return rows.map((r) => `${r.t}:${r.n}:${r.h}`).join(' ');
  }

  const api = () => shop.api;
  const answer = (res: ApiResponse): Answer => ({ status: res.status, body: res.body });
  const page = async (
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
    cookie?: string,
  ): Promise<Answer> => {
    const res = await app.inject({
      method,
      url,
      headers: form
        ? { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) }
        : {},
      payload: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: res.statusCode, body: res.body };
  };
  /** A page's CSRF token and the cookie it goes with, for its forms. */
  async function formKey(url: string): Promise<{ csrf: string; cookie: string }> {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    return {
      csrf: /name="csrf" value="([^"]+)"/.exec(res.body)![1],
      cookie: String(res.headers['set-cookie']).split(';')[0],
    };
  }

  const invalid = (code: string, message: string) => apiError(400, code, message);
  const invalidDatetime = (v: string) =>
    invalid('invalid_datetime', `The datetime "${v}" is invalid.`);
  const invalidDate = (code: string) => (v: string) => invalid(code, `The date "${v}" is invalid.`);
  const invalidAttribute = (code: string, attribute: string) => () =>
    invalid(code, `Invalid "${attribute}" attribute value.`);
  const invalidOverrides = (v: string) =>
    invalid(
      'invalid_overrides',
      `Invalid "overrides" attribute value: ${JSON.stringify(v)} is not a date (YYYY-MM-DD).`,
    );
  const booking = (datetime: string) => ({
    appointmentTypeID: shop.type,
    calendarID: shop.calendar,
    datetime,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.test',
    fields: [{ id: shop.form.consent, value: 'yes' }],
  });

  /** The scheduling page's date step, the value nowhere on it (not a choice, not an error). */
  const dateStep = (status: number, text?: string) => (v: string) => (a: Answer) => {
    expect({ value: v, status: a.status }).toEqual({ value: v, status });
    const body = String(a.body);
    expect(body).toContain('id="month"');
    if (text) expect(body).toContain(text);
    expect(body).not.toContain(v);
    expect(body).not.toContain('Invalid');
  };

  const apiRoutes: DateRoute[] = [
    {
      name: 'GET /availability/dates?month',
      kind: 'month',
      send: async (v) =>
        answer(await api().get(`/availability/dates?appointmentTypeID=${shop.type}&month=${q(v)}`)),
      refused: (v) => invalid('invalid_month', `The month "${v}" is invalid.`),
    },
    {
      name: 'GET /availability/times?date',
      kind: 'date',
      send: async (v) =>
        answer(await api().get(`/availability/times?appointmentTypeID=${shop.type}&date=${q(v)}`)),
      refused: invalidDate('invalid_date'),
    },
    {
      name: 'GET /availability/classes?month',
      kind: 'month',
      send: async (v) => answer(await api().get(`/availability/classes?month=${q(v)}`)),
      refused: (v) => invalid('invalid_month', `The month "${v}" is invalid.`),
    },
    {
      name: 'GET /availability/classes?minDate',
      kind: 'date',
      send: async (v) => answer(await api().get(`/availability/classes?minDate=${q(v)}`)),
      refused: invalidDate('invalid_min_date'),
    },
    {
      name: 'GET /availability/classes?maxDate',
      kind: 'date',
      send: async (v) => answer(await api().get(`/availability/classes?maxDate=${q(v)}`)),
      refused: invalidDate('invalid_max_date'),
    },
    {
      name: 'POST /availability/check-times',
      kind: 'datetime',
      send: async (v) =>
        answer(
          await api().post('/availability/check-times', {
            appointmentTypeID: shop.type,
            calendarID: shop.calendar,
            datetime: v,
          }),
        ),
      refused: (v) => ({
        status: 200,
        body: [
          {
            valid: false,
            datetime: v,
            appointmentTypeID: shop.type,
            calendarID: shop.calendar,
            reason: 'invalid_datetime',
          },
        ],
      }),
    },
    {
      name: 'POST /appointments',
      kind: 'datetime',
      send: async (v) => answer(await api().post('/appointments', booking(v))),
      refused: invalidDatetime,
    },
    {
      name: 'POST /appointments?admin=true',
      kind: 'datetime',
      send: async (v) => answer(await api().post('/appointments?admin=true', booking(v))),
      refused: invalidDatetime,
    },
    {
      name: 'PUT /appointments/{id}/reschedule',
      kind: 'datetime',
      send: async (v) =>
        answer(await api().put(`/appointments/${booked.id}/reschedule`, { datetime: v })),
      refused: invalidDatetime,
    },
    {
      name: 'PUT /appointments/{id}/reschedule?admin=true',
      kind: 'datetime',
      send: async (v) =>
        answer(
          await api().put(`/appointments/${booked.id}/reschedule?admin=true`, { datetime: v }),
        ),
      refused: invalidDatetime,
    },
    {
      name: 'GET /appointments?minDate',
      kind: 'date',
      send: async (v) => answer(await api().get(`/appointments?minDate=${q(v)}`)),
      refused: invalidAttribute('invalid_min_date', 'minDate'),
    },
    {
      name: 'GET /appointments?maxDate',
      kind: 'date',
      send: async (v) => answer(await api().get(`/appointments?maxDate=${q(v)}`)),
      refused: invalidAttribute('invalid_max_date', 'maxDate'),
    },
    {
      name: 'POST /slot-holds',
      kind: 'datetime',
      send: async (v) =>
        answer(
          await api().post('/slot-holds', {
            appointmentTypeID: shop.type,
            calendarID: shop.calendar,
            datetime: v,
          }),
        ),
      refused: invalidDatetime,
    },
    {
      name: 'POST /classes',
      kind: 'datetime',
      send: async (v) =>
        answer(
          await api().post('/classes', {
            appointmentTypeID: classType,
            calendarID: shop.calendar,
            datetime: v,
          }),
        ),
      refused: invalidDatetime,
    },
    {
      name: 'POST /blocks (start)',
      kind: 'datetime',
      send: async (v) =>
        answer(
          await api().post('/blocks', {
            calendarID: shop.calendar,
            start: v,
            end: '2030-06-03T12:00',
          }),
        ),
      refused: (v) => invalid('invalid_start', `The datetime "${v}" is invalid.`),
    },
    {
      name: 'POST /blocks (end)',
      kind: 'datetime',
      send: async (v) =>
        answer(
          await api().post('/blocks', {
            calendarID: shop.calendar,
            start: '2030-06-03T11:00',
            end: v,
          }),
        ),
      refused: (v) => invalid('invalid_end', `The datetime "${v}" is invalid.`),
    },
    {
      name: 'GET /blocks?minDate',
      kind: 'date',
      send: async (v) => answer(await api().get(`/blocks?minDate=${q(v)}`)),
      refused: invalidAttribute('invalid_min_date', 'minDate'),
    },
    {
      name: 'GET /blocks?maxDate',
      kind: 'date',
      send: async (v) => answer(await api().get(`/blocks?maxDate=${q(v)}`)),
      refused: invalidAttribute('invalid_max_date', 'maxDate'),
    },
    {
      name: 'POST /coupons (expiration)',
      kind: 'date',
      send: async (v) =>
        answer(
          await api().post('/coupons', {
            name: 'Autumn',
            discountType: 'price',
            discountAmount: 5,
            expiration: v,
          }),
        ),
      refused: invalidAttribute('invalid_expiration', 'expiration'),
    },
    {
      name: 'PUT /coupons/{id} (expiration)',
      kind: 'date',
      send: async (v) => answer(await api().put(`/coupons/${coupon}`, { expiration: v })),
      refused: invalidAttribute('invalid_expiration', 'expiration'),
    },
    {
      name: 'POST /calendars (overrides)',
      kind: 'date',
      send: async (v) =>
        answer(
          await api().post('/calendars', {
            name: 'Room B',
            timezone: 'Europe/Paris',
            overrides: { [v]: [{ start: '09:00', end: '12:00' }] },
          }),
        ),
      refused: invalidOverrides,
    },
    {
      name: 'PUT /calendars/{id} (overrides)',
      kind: 'date',
      send: async (v) =>
        answer(await api().put(`/calendars/${shop.calendar}`, { overrides: { [v]: [] } })),
      refused: invalidOverrides,
    },
  ];

  const schedule = () =>
    `/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${q('America/New_York')}`;
  const pageRoutes: DateRoute[] = [
    ...(['month', 'date'] as const).flatMap((name): DateRoute[] => [
      {
        name: `GET /schedule/{accountId}?${name}`,
        kind: name,
        send: (v) => page('GET', `${schedule()}&${name}=${q(v)}`),
        refused: dateStep(200),
      },
      {
        name: `GET /schedule/{accountId}?${name}&part=times`,
        kind: name,
        send: (v) => page('GET', `${schedule()}&${name}=${q(v)}&part=times`),
        refused: dateStep(200),
      },
    ]),
    {
      name: 'GET /schedule/{accountId}?datetime (the details step)',
      kind: 'datetime',
      send: (v) => page('GET', `${schedule()}&datetime=${q(v)}`),
      refused: dateStep(200),
    },
    {
      name: 'POST /schedule/{accountId}/hold',
      kind: 'datetime',
      send: async (v) => {
        const { csrf, cookie } = await formKey(`${schedule()}&date=2030-06-03`);
        return page(
          'POST',
          `/schedule/${shop.account.id}/hold`,
          { csrf, appointmentType: String(shop.type), date: '2030-06-03', datetime: v },
          cookie,
        );
      },
      refused: dateStep(400, 'Please choose a time.'),
    },
    {
      name: 'POST /schedule/{accountId} (book)',
      kind: 'datetime',
      send: async (v) => {
        const { csrf, cookie } = await formKey(`${schedule()}&date=2030-06-03`);
        return page(
          'POST',
          `/schedule/${shop.account.id}`,
          {
            csrf,
            appointmentType: String(shop.type),
            datetime: v,
            firstName: 'Ada',
            lastName: 'Lovelace',
            email: 'ada@example.test',
            [`field:${shop.form.consent}`]: 'yes',
          },
          cookie,
        );
      },
      refused: () => (a: Answer) => expect(a.status).toBe(400),
    },
    ...(['month', 'date'] as const).map((name): DateRoute => ({
      name: `GET /confirmation/{token}/reschedule?${name}`,
      kind: name,
      send: (v) => page('GET', `${pageBooked.page}/reschedule?${name}=${q(v)}`),
      refused: dateStep(200),
    })),
    {
      name: 'POST /confirmation/{token}/reschedule',
      kind: 'datetime',
      send: async (v) => {
        const { csrf, cookie } = await formKey(pageBooked.page);
        return page('POST', `${pageBooked.page}/reschedule`, { csrf, datetime: v }, cookie);
      },
      refused: (v) => (a: Answer) => {
        expect({ value: v, status: a.status }).toEqual({ value: v, status: 400 });
        expect(String(a.body)).toContain('id="month"');
      },
    },
  ];

  /** Sends each value; asserts the refusal, never a 5xx, and the account's rows unchanged. */
  async function refusesEvery(route: DateRoute): Promise<void> {
    const { cases, random } = VALUES[route.kind];
    const before = await fingerprint();
    await fc.assert(
      fc.asyncProperty(random, async (value) => {
        const got = await route.send(value);
        expect({ route: route.name, value, status: got.status < 500 }).toEqual({
          route: route.name,
          value,
          status: true,
        });
        const refused = route.refused(value);
        if (typeof refused === 'function') refused(got);
        else expect({ value, ...got }).toEqual({ value, ...refused });
        expect({ route: route.name, value, rows: await fingerprint() }).toEqual({
          route: route.name,
          value,
          rows: before,
        });
      }),
      { numRuns: cases.length + RUNS, examples: cases.map((v) => [v]) },
    );
  }

  it.each(apiRoutes.map((r) => [r.name, r] as const))(
    'the API, %s: refused as 2026-13-45 is, never a 5xx, nothing written',
    (_, route) => refusesEvery(route),
    120_000,
  );

  it.each(pageRoutes.map((r) => [r.name, r] as const))(
    'the pages, %s: the date step (or the form refused), never a 5xx, nothing written',
    (_, route) => refusesEvery(route),
    120_000,
  );

  it('takes the edges, 1900-01-01 and 2999-12-31, whatever the zone does to the instant', async () => {
    const kiritimati = await createCalendar(shop.api, {
      name: 'Fourteen hours east',
      timezone: 'Etc/GMT-14', // +14:00 (the IANA sign is reversed)
    });
    const bakerIsland = await createCalendar(shop.api, {
      name: 'Twelve hours west',
      timezone: 'Etc/GMT+12', // -12:00
    });
    const type = await createAppointmentType(shop.api, {
      calendarIDs: [kiritimati, bakerIsland],
      maxDaysInAdvance: 3650,
    });
    const admin = (calendarID: number, datetime: string) =>
      shop.api.post('/appointments?admin=true', {
        ...booking(datetime),
        appointmentTypeID: type,
        calendarID,
        fields: [],
      });
    const first = await admin(kiritimati, '1900-01-01T00:00');
    const last = await admin(bakerIsland, '2999-12-31T23:30');
    expect([first.status, first.body.datetime]).toEqual([200, '1900-01-01T00:00:00+1400']);
    expect([last.status, last.body.datetime]).toEqual([200, '2999-12-31T23:30:00-1200']);
    const stored = await db.query<{ s: Date }[]>(
      'SELECT starts_at AS s FROM appointments WHERE id IN (?, ?) ORDER BY starts_at',
      [first.body.id, last.body.id],
    );
    // The instants lie past the years the service takes, still well inside what DATETIME holds.
    expect(stored.map((r) => r.s.toISOString())).toEqual([
      '1899-12-31T10:00:00.000Z',
      '3000-01-01T11:30:00.000Z',
    ]);
    for (const [calendar, m, d] of [
      [kiritimati, '1900-01', '1900-01-01'],
      [bakerIsland, '2999-12', '2999-12-31'],
    ] as const) {
      const slot = `appointmentTypeID=${type}&calendarID=${calendar}`;
      expect((await shop.api.get(`/availability/dates?${slot}&month=${m}`)).status).toBe(200);
      expect((await shop.api.get(`/availability/times?${slot}&date=${d}`)).status).toBe(200);
      expect((await shop.api.get(`/appointments?minDate=${d}&maxDate=${d}`)).status).toBe(200);
      const schedulePage = await page(
        'GET',
        `/schedule/${shop.account.id}?appointmentType=${type}&calendarID=${calendar}&month=${m}&date=${d}`,
      );
      expect(schedulePage.status).toBe(200);
      expect(String(schedulePage.body)).toContain(`id="times"`);
    }
  });
});
