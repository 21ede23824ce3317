import fc from 'fast-check';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient } from '../support/api-client';
import { createAppointmentType, createCalendar, createForm } from '../support/catalog-fixtures';
import { type TestAccount, basicAuth, createAccount, startApi } from '../support/test-app';
import { type TestClient, registerClient } from '../oauth/oauth-fixtures';

/**
 * Every write endpoint (POST, PUT, DELETE under /api/v1 and /oauth2) fed random and near-valid
 * bodies, path parameters, query strings and headers: never a 5xx, every error in its envelope
 * (`{status_code, message, error}` under /api/v1, `{error, message}` or a page under /oauth2), no
 * stack, SQL or path in any answer, and the database unchanged by every refused request.
 */

/** Runs per endpoint: ~45 endpoints, each run a request and two database snapshots. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

const LEAKS =
  /\bat [\w$.<>]+ \(|\.ts:\d|\.js:\d|\/work\/|\/srv\/|node_modules|\bSELECT\b|\bINSERT INTO\b|\bUPDATE `|ER_[A-Z_]{3,}|QueryFailedError|TypeError|ReferenceError/;

type Body = Record<string, unknown>;

interface WriteRoute {
  method: 'POST' | 'PUT' | 'DELETE';
  /** The path with `:id` where a numeric id goes. */
  path: string;
  /** A body the endpoint accepts (undefined: it takes none). */
  valid?: () => Body;
  /** A fixture's id for `:id`. */
  id?: () => number;
  /** A query the endpoint accepts (`PUT /clients?firstName=…`), sent besides random ones. */
  query?: string;
}

/** Values that break assumptions: types, ranges, sizes, encodings. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    '',
    '   ',
    'x'.repeat(10_001),
    'x'.repeat(16_001),
    'x'.repeat(300),
    '\u0000',
    '\uD800 lone surrogate',
    '😀'.repeat(70),
    "'; DROP TABLE accounts; --",
    '<script>alert(1)</script>',
    '2030-13-45T25:61',
    '2030-02-30T10:00',
    '9999-12-31T23:59:59+1400',
    '0000-00-00',
    -1,
    0,
    2 ** 31,
    Number.MAX_SAFE_INTEGER,
    1e308,
    -1e-308,
    0.1,
    '12abc',
    '1e3',
    [],
    {},
    [1, 'x', null],
    { id: 1 },
    true,
    null,
  ),
);

const KEYS = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'id',
    'accountId',
    'account_id',
    'admin',
    'createdAt',
    'prototype',
    'toString',
    'hasOwnProperty',
  ),
);

/** `n` distinct keys: `{"0":0,"1":0,…}` (base 36, short enough for 80,000 of them in 1 MiB). */
const keysText = (n: number) =>
  `{${Array.from({ length: n }, (_, i) => `"${i.toString(36)}":0`).join(',')}}`;
const itemsText = (n: number, item: string) =>
  `[${Array.from({ length: n }, () => item).join(',')}]`;

/**
 * Shapes a body may take past its bounds (json-shape.ts) or up to them, as an attribute added to a
 * valid body: many keys, long arrays, deep nesting, many values.
 */
const SHAPES = [
  keysText(80_000),
  keysText(2001),
  keysText(2000),
  itemsText(140_000, '1'),
  itemsText(2001, '{"id":1}'),
  itemsText(2000, '"x"'),
  itemsText(11, keysText(1999)),
  `${'['.repeat(33)}${']'.repeat(33)}`,
  `${'{"a":'.repeat(31)}1${'}'.repeat(31)}`,
  '{"toString":1,"valueOf":{"hasOwnProperty":[]}}',
];

/** A valid body with one attribute changed, removed, or foreign keys added (prototype ones too). */
function nearValid(valid: Body): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  const json = JSON.stringify(valid);
  return fc.oneof(
    fc
      .tuple(fc.constantFrom(...keys), hostileValue)
      .map(([key, value]) => JSON.stringify({ ...valid, [key]: value })),
    fc.constantFrom(...keys).map((key) => {
      const copy = { ...valid };
      delete copy[key];
      return JSON.stringify(copy);
    }),
    fc
      .dictionary(KEYS, hostileValue, { maxKeys: 3 })
      .map((extra) => JSON.stringify({ ...extra, ...valid, ...extra })),
    fc.constantFrom(
      `${json.slice(0, -1)},"__proto__":{"admin":true,"accountId":1}}`,
      `${json.slice(0, -1)},"constructor":{"prototype":{"admin":true}}}`,
      `[${json}]`,
      `${json.slice(0, -1)},"nested":${'['.repeat(40)}${']'.repeat(40)}}`,
      json.slice(0, -1),
    ),
    fc
      .tuple(fc.constantFrom(...keys, 'junk'), fc.constantFrom(...SHAPES))
      .map(([key, shape]) => `${json.slice(0, -1)},${JSON.stringify(key)}:${shape}}`),
  );
}

function bodyOf(route: WriteRoute): fc.Arbitrary<string | undefined> {
  const random = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ maxLength: 40 }),
    fc.constant(''),
  );
  const valid = route.valid?.();
  return valid === undefined
    ? fc.oneof(fc.constant(undefined), random)
    : fc.oneof({ weight: 3, arbitrary: nearValid(valid) }, { weight: 1, arbitrary: random });
}

function idOf(route: WriteRoute): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(String(route.id?.() ?? 1)),
    fc.integer().map(String),
    fc.constantFrom(
      '0',
      '-1',
      '2147483648',
      '9007199254740993',
      '99999999999999999999',
      '1e3',
      '0x10',
      'abc',
      '%00',
      '%E0%A4%A',
      '1%3BDROP',
      '..%2F..%2Fetc',
      '1'.repeat(150),
    ),
    fc.string({ maxLength: 10 }).map(encodeURIComponent),
  );
}

const printable = fc.string({
  unit: fc.constantFrom(...' !#$%&()*+,-./0123456789:;<=>?@ABCXYZ[]^_`abcxyz{|}~'.split('')),
  maxLength: 30,
});

const queryOf: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?admin=true',
    '?admin=true&admin=false',
    '?noEmail=1&noEmail=0',
    '?admin[]=true',
    '?admin[a]=1',
    '?__proto__[admin]=true',
    '?constructor[prototype][admin]=true',
    `?admin=${'x'.repeat(5000)}`,
    `?${Array.from({ length: 300 }, (_, i) => `p${i}=1`).join('&')}`,
  ),
  fc
    .dictionary(fc.constantFrom('admin', 'noEmail', 'calendarID', 'max', 'x'), printable, {
      maxKeys: 3,
    })
    .map((d) => `?${new URLSearchParams(d).toString()}`),
);

function queryFor(route: WriteRoute): fc.Arbitrary<string> {
  return route.query === undefined
    ? queryOf
    : fc.oneof(
        { weight: 3, arbitrary: fc.constant(route.query) },
        { weight: 1, arbitrary: queryOf.map((q) => `${route.query}&${q.slice(1)}`) },
        { weight: 1, arbitrary: queryOf },
      );
}

interface Sent {
  status: number;
  contentType: string;
  body: string;
}

describe('Hardening: fuzzing every write endpoint (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let account: TestAccount;
  let api: ApiClient;
  let client: TestClient;
  let tables: string[];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    account = await createAccount(app);
    api = apiClient(app, account);
    const made = async (path: string, body: Body): Promise<number> => {
      const res = await api.post(path, body);
      if (res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`);
      return (res.body as { id: number }).id;
    };
    ids.calendar = await createCalendar(api);
    ids.form = await createForm(api);
    ids.type = await createAppointmentType(api, { calendarIDs: [ids.calendar] });
    ids.classType = await createAppointmentType(api, {
      name: 'Yoga',
      type: 'class',
      classSize: 5,
      calendarIDs: [ids.calendar],
    });
    ids.addon = await made('/appointment-addons', { name: 'Extra' });
    ids.label = await made('/labels', { name: 'VIP' });
    ids.product = await made('/products', {
      name: 'Pack',
      price: '50.00',
      type: 'appointments',
      appointmentTypeCounts: { [ids.type]: 5 },
    });
    ids.coupon = await made('/coupons', {
      name: 'Spring',
      discountType: 'percentage',
      discountAmount: 10,
    });
    ids.classSession = await made('/classes', {
      appointmentTypeID: ids.classType,
      calendarID: ids.calendar,
      datetime: '2030-05-05T10:00',
    });
    ids.block = await made('/blocks', {
      calendarID: ids.calendar,
      start: '2030-06-01T10:00',
      end: '2030-06-01T11:00',
    });
    ids.webhook = await made('/webhooks', {
      event: 'appointment.scheduled',
      target: 'https://receiver.example/hook',
    });
    ids.certificate = await made('/certificates', { productID: ids.product });
    ids.order = await made('/orders', {
      productID: ids.product,
      firstName: 'Ann',
      lastName: 'Buyer',
      email: 'ann@example.test',
    });
    ids.appointment = await made('/appointments?admin=true', {
      appointmentTypeID: ids.type,
      calendarID: ids.calendar,
      datetime: '2030-05-06T10:00',
      firstName: 'Ada',
      lastName: 'Client',
      email: 'ada@example.test',
    });
    ids.holdType = await createAppointmentType(api, {
      calendarIDs: [ids.calendar],
      maxDaysInAdvance: 3650,
    });
    ids.hold = await made('/slot-holds', {
      appointmentTypeID: ids.holdType,
      calendarID: ids.calendar,
      datetime: '2030-05-06T15:00',
      minutes: 30,
    });
    const cleo = await api.post('/clients', { firstName: 'Cleo', lastName: 'Client', phone: '1' });
    if (cleo.status !== 200) throw new Error(`/clients: ${JSON.stringify(cleo.body)}`);
    client = await registerClient(app);
    tables = (
      await db.query<{ name: string }[]>(
        'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY table_name',
      )
    ).map((t) => t.name);
  });

  afterAll(() => app.close());

  /**
   * Every table's checksum (row counts and contents), but the outbox's count only: a successful
   * write marks its outbox rows dispatched after answering, which may fall in a later snapshot.
   */
  async function snapshot(): Promise<string> {
    const checked = tables.filter((t) => t !== 'outbox' && t !== 'migrations');
    const sums = await db.query<{ Table: string; Checksum: string }[]>(
      `CHECKSUM TABLE ${checked.map((t) => `\`${t}\``).join(', ')}`,
    );
    const [{ n }] = await db.query<{ n: string }[]>('SELECT COUNT(*) AS n FROM outbox');
    return JSON.stringify([sums.map((s) => `${s.Table}:${s.Checksum}`), n]);
  }

  const apiRoutes: WriteRoute[] = [
    {
      method: 'POST',
      path: '/calendars',
      valid: () => ({ name: 'Room', timezone: 'Europe/Paris' }),
    },
    {
      method: 'PUT',
      path: '/calendars/:id',
      id: () => ids.calendar,
      valid: () => ({ name: 'Room B' }),
    },
    { method: 'POST', path: '/appointment-addons', valid: () => ({ name: 'Extra', duration: 10 }) },
    {
      method: 'PUT',
      path: '/appointment-addons/:id',
      id: () => ids.addon,
      valid: () => ({ price: '5.00' }),
    },
    { method: 'POST', path: '/labels', valid: () => ({ name: 'Paid', color: 'gold' }) },
    { method: 'PUT', path: '/labels/:id', id: () => ids.label, valid: () => ({ name: 'Unpaid' }) },
    { method: 'POST', path: '/forms', valid: () => ({ name: 'Intake' }) },
    { method: 'PUT', path: '/forms/:id', id: () => ids.form, valid: () => ({ name: 'Outtake' }) },
    {
      method: 'POST',
      path: '/appointment-types',
      valid: () => ({ name: 'Consultation', duration: 30, calendarIDs: [ids.calendar] }),
    },
    {
      method: 'PUT',
      path: '/appointment-types/:id',
      id: () => ids.type,
      valid: () => ({ name: 'Long consultation', duration: 45, addonIDs: [ids.addon] }),
    },
    {
      method: 'POST',
      path: '/products',
      valid: () => ({
        name: 'Ten',
        price: '90.00',
        type: 'appointments',
        appointmentTypeCounts: { [ids.type]: 10 },
      }),
    },
    {
      method: 'PUT',
      path: '/products/:id',
      id: () => ids.product,
      valid: () => ({ name: 'Pack 2' }),
    },
    {
      method: 'POST',
      path: '/coupons',
      valid: () => ({ name: 'Autumn', discountType: 'price', discountAmount: 5 }),
    },
    {
      method: 'PUT',
      path: '/coupons/:id',
      id: () => ids.coupon,
      valid: () => ({ name: 'Winter' }),
    },
    {
      method: 'POST',
      path: '/classes',
      valid: () => ({
        appointmentTypeID: ids.classType,
        calendarID: ids.calendar,
        datetime: '2030-05-07T10:00',
      }),
    },
    {
      method: 'POST',
      path: '/blocks',
      valid: () => ({
        calendarID: ids.calendar,
        start: '2030-06-02T10:00',
        end: '2030-06-02T11:00',
        notes: 'Off',
      }),
    },
    {
      method: 'POST',
      path: '/availability/check-times',
      valid: () => ({
        appointmentTypeID: ids.type,
        calendarID: ids.calendar,
        datetime: '2030-05-06T11:00',
      }),
    },
    {
      method: 'POST',
      path: '/webhooks',
      valid: () => ({ event: 'appointment.canceled', target: 'https://receiver.example/other' }),
    },
    {
      method: 'PUT',
      path: '/webhooks/:id',
      id: () => ids.webhook,
      valid: () => ({ target: 'https://receiver.example/moved', status: 'active' }),
    },
    {
      method: 'PUT',
      path: '/integrations/webhooks',
      valid: () => ({ scheduled: { target: 'https://receiver.example/static', status: 'active' } }),
    },
    {
      method: 'PUT',
      path: '/settings',
      valid: () => ({ timezone: 'Europe/Berlin', minHoursInAdvance: 2 }),
    },
    {
      method: 'POST',
      path: '/certificates',
      valid: () => ({ productID: ids.product, email: 'b@example.test' }),
    },
    {
      method: 'POST',
      path: '/orders',
      valid: () => ({
        productID: ids.product,
        firstName: 'Bo',
        lastName: 'Buyer',
        email: 'bo@example.test',
        phone: '+33 1 23 45 67 89',
        notes: 'Gift',
      }),
    },
    {
      method: 'POST',
      path: '/orders/:id/payments',
      id: () => ids.order,
      valid: () => ({
        amount: '5.00',
        processor: 'cash',
        transactionID: 'ch_order',
        reason: 'Paid at the desk',
      }),
    },
    { method: 'PUT', path: '/orders/:id/complete', id: () => ids.order },
    {
      method: 'POST',
      path: '/appointments',
      valid: () => ({
        appointmentTypeID: ids.type,
        calendarID: ids.calendar,
        datetime: '2030-05-08T10:00',
        firstName: 'Eve',
        lastName: 'Client',
        email: 'eve@example.test',
        phone: '555-0100',
        fields: [{ id: 1, value: 'x' }],
        addonIDs: [ids.addon],
        labels: [{ id: ids.label }],
        certificate: 'NONE',
      }),
    },
    {
      method: 'PUT',
      path: '/appointments/:id',
      id: () => ids.appointment,
      valid: () => ({ firstName: 'Adele', notes: 'Window seat', labels: [{ id: ids.label }] }),
    },
    {
      method: 'POST',
      path: '/appointments/:id/payments',
      id: () => ids.appointment,
      valid: () => ({ amount: '5.00', processor: 'card-terminal', reason: 'Deposit' }),
    },
    {
      method: 'PUT',
      path: '/appointments/:id/reschedule',
      id: () => ids.appointment,
      valid: () => ({ datetime: '2030-05-09T10:00', calendarID: ids.calendar }),
    },
    {
      method: 'PUT',
      path: '/appointments/:id/cancel',
      id: () => ids.appointment,
      valid: () => ({ cancelNote: 'Ill', noShow: false }),
    },
    {
      method: 'POST',
      path: '/clients',
      valid: () => ({ firstName: 'Dora', lastName: 'Client', email: 'dora@example.test' }),
    },
    {
      method: 'PUT',
      path: '/clients',
      query: '?firstName=Cleo&lastName=Client',
      valid: () => ({ phone: '555 0199', notes: 'Prefers mornings' }),
    },
    {
      method: 'POST',
      path: '/slot-holds',
      valid: () => ({
        appointmentTypeID: ids.holdType,
        calendarID: ids.calendar,
        datetime: '2030-05-06T16:00',
        timezone: 'Europe/Paris',
        minutes: 5,
      }),
    },
    { method: 'PUT', path: '/slot-holds/:id', id: () => ids.hold, valid: () => ({ minutes: 20 }) },
    // Deletions last: a valid id deletes the fixture the routes above use.
    { method: 'DELETE', path: '/slot-holds/:id', id: () => ids.hold },
    { method: 'DELETE', path: '/clients', query: '?firstName=Cleo&lastName=Client' },
    { method: 'DELETE', path: '/blocks/:id', id: () => ids.block },
    { method: 'DELETE', path: '/classes/:id', id: () => ids.classSession },
    { method: 'DELETE', path: '/certificates/:id', id: () => ids.certificate },
    { method: 'DELETE', path: '/webhooks/:id', id: () => ids.webhook },
    { method: 'DELETE', path: '/coupons/:id', id: () => ids.coupon },
    { method: 'DELETE', path: '/products/:id', id: () => ids.product },
    { method: 'DELETE', path: '/appointment-types/:id', id: () => ids.type },
    { method: 'DELETE', path: '/appointment-addons/:id', id: () => ids.addon },
    { method: 'DELETE', path: '/labels/:id', id: () => ids.label },
    { method: 'DELETE', path: '/forms/:id', id: () => ids.form },
    { method: 'DELETE', path: '/calendars/:id', id: () => ids.calendar },
  ];

  const contentTypes = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    undefined,
  );

  const authorizations = fc.oneof(
    { weight: 6, arbitrary: fc.constant('valid') },
    fc.constantFrom('Basic !!!', 'Bearer nope', 'Digest x', ''),
    printable,
  );

  async function send(
    method: WriteRoute['method'],
    url: string,
    headers: Record<string, string | undefined>,
    payload: string | undefined,
  ): Promise<Sent> {
    const res = await app.inject({
      method,
      url,
      headers: Object.fromEntries(
        Object.entries(headers).filter(([, v]) => v !== undefined),
      ) as Record<string, string>,
      ...(payload === undefined ? {} : { payload }),
    });
    return {
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body,
    };
  }

  /** The checks of every answer; `envelope` checks the error body's shape. */
  async function checked(
    request: () => Promise<Sent>,
    envelope: (sent: Sent) => void,
  ): Promise<void> {
    const before = await snapshot();
    const sent = await request();
    expect(sent.status).toBeLessThan(500);
    expect(sent.body).not.toMatch(LEAKS);
    if (sent.status >= 400) {
      envelope(sent);
      expect(await snapshot()).toBe(before);
    }
  }

  function apiEnvelope(sent: Sent): void {
    expect(sent.contentType).toMatch(/^application\/json/);
    const body = JSON.parse(sent.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'status_code']);
    expect(body.status_code).toBe(sent.status);
    expect(body.error).toMatch(/^[a-z0-9_]+$/);
    expect(typeof body.message).toBe('string');
  }

  /*
   * Issue 20: control and bidi characters. A valid body of each write endpoint with one of its
   * strings (nested ones too) carrying, inside it, a character no attribute takes (NUL, another C0
   * or C1 control, DEL, a bidi embedding, override or isolate, a line or paragraph separator) or
   * one a one-line attribute does not take (CR, LF, TAB: multi-line ones keep them): 400 in the
   * envelope, naming that attribute, never a 5xx, and nothing stored. Before the routes below,
   * which delete the fixtures. (Webhook targets are the webhooks module's URL rules; the
   * availability check stores nothing.)
   */
  describe('control characters in every text attribute (issue 20)', () => {
    const own: Record<string, number> = {};

    /** A form with a one-line question, a type asking it, an appointment of that type. */
    beforeAll(async () => {
      const form = await api.post('/forms', {
        name: 'Referral',
        fields: [{ name: 'Referred by', type: 'textbox' }],
      });
      own.field = (form.body as { fields: { id: number }[] }).fields[0].id;
      own.type = await createAppointmentType(api, {
        calendarIDs: [ids.calendar],
        formIDs: [(form.body as { id: number }).id],
        // Bookable by a client in 2030: a certificate is read last, after the time.
        maxDaysInAdvance: 3650,
      });
      const booked = await api.post('/appointments?admin=true', {
        appointmentTypeID: own.type,
        calendarID: ids.calendar,
        datetime: '2030-05-06T11:00',
        firstName: 'Ida',
        lastName: 'Client',
      });
      own.appointment = (booked.body as { id: number }).id;
    });

    /** What the valid bodies above lack of the text attributes their endpoints take. */
    const client = () => ({ lastName: 'Client', email: 'eve@example.test', phone: '555-0100' });
    const answer = () => ({ fields: [{ id: own.field, value: 'A friend' }] });
    const MORE_TEXT: Record<string, () => Body> = {
      'POST /calendars': () => ({
        location: '12 Main St',
        description: 'Ground floor',
        email: 'room@example.test',
        replyTo: 'desk@example.test',
      }),
      'PUT /calendars/:id': () => ({ location: '14 Main St', description: 'First floor' }),
      'PUT /appointment-addons/:id': () => ({ name: 'More time' }),
      'POST /forms': () => ({
        description: 'About the visit',
        fields: [{ name: 'Size', type: 'dropdown', options: ['Small', 'Large'] }],
      }),
      'POST /appointment-types': () => ({ category: 'Medical', description: 'A first visit' }),
      'PUT /appointment-types/:id': () => ({ category: 'Medical care' }),
      'POST /products': () => ({ description: 'Ten visits' }),
      'POST /classes': () => ({ name: 'Morning flow' }),
      // The type asking the question answered; no addon (it offers none).
      'POST /appointments': () => ({
        appointmentTypeID: own.type,
        addonIDs: [],
        timezone: 'Europe/Paris',
        ...answer(),
      }),
      'PUT /appointments/:id': () => ({ ...client(), ...answer() }),
      'PUT /appointments/:id/reschedule': () => ({ timezone: 'Europe/Paris' }),
    };
    /**
     * Not refused here: webhook targets (URLs, the webhooks module's rules), a check that stores
     * nothing, and a hold's extension (no text: `minutes` only).
     */
    const NOT_HERE = /^(POST|PUT) \/(webhooks|integrations|availability|slot-holds\/:id)/;

    type TextRoute = WriteRoute & { valid: () => Body; query: string };
    const textRoutes = apiRoutes.flatMap((route): TextRoute[] => {
      const key = `${route.method} ${route.path}`;
      if (!route.valid || NOT_HERE.test(key)) return [];
      const mine = route.path.startsWith('/appointments/');
      const text: TextRoute = {
        ...route,
        query: '',
        id: mine ? () => own.appointment : route.id,
        valid: () => ({ ...route.valid!(), ...MORE_TEXT[key]?.() }),
      };
      // Booking, its edit and its cancel take `?admin=true` (booking an admin's notes too).
      if (!/^\/appointments(\/:id(\/cancel)?)?$/.test(route.path)) return [text];
      // A client's notes are ignored (admins only), so not checked when booking as a client.
      const notes = route.method === 'POST' ? { notes: 'Window seat' } : {};
      return [
        text,
        { ...text, query: '?admin=true', valid: () => ({ ...text.valid(), ...notes }) },
      ];
    });

    /** Attributes that keep line breaks and tabs. */
    const MULTI_LINE = new Set(['notes', 'description', 'cancelNote', 'reason']);
    /** C0 and C1 controls, DEL, line and paragraph separators, bidi embeddings, overrides, isolates. */
    const ALWAYS_REFUSED = [
      ...'\u0000\u0001\u0007\u000B\u001B\u007F\u0080\u0085\u009B\u009F\u2028\u2029',
      ...'\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069',
    ];
    const LINE_BREAKS = ['\r\n', '\n', '\r', '\t'];

    /** Every string of a body, by its path. */
    function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
      if (typeof value === 'string') return [path];
      if (typeof value !== 'object' || value === null) return [];
      return Object.entries(value).flatMap(([key, item]) =>
        stringPaths(item, [...path, Array.isArray(value) ? Number(key) : key]),
      );
    }

    function withAt(body: unknown, path: (string | number)[], change: (s: string) => string) {
      const copy = structuredClone(body) as Record<string | number, unknown>;
      let parent = copy;
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
      const last = path[path.length - 1];
      parent[last] = change(parent[last] as string);
      return copy;
    }

    const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

    it.each(textRoutes.map((r) => [`${r.method} ${r.path}${r.query}`, r] as const))(
      '%s',
      async (_, route) => {
        const paths = stringPaths(route.valid());
        const attempt = fc.constantFrom(...paths).chain((path) =>
          fc.record({
            path: fc.constant(path),
            chars: fc.constantFrom(
              ...ALWAYS_REFUSED,
              ...(MULTI_LINE.has(String(path[path.length - 1])) ? [] : LINE_BREAKS),
            ),
            at: fc.double({ min: 0, max: 1, noNaN: true }),
          }),
        );
        await fc.assert(
          fc.asyncProperty(attempt, async ({ path, chars, at }) => {
            // Inside the value: a space or line break at either end is trimmed away, as stored.
            const body = withAt(route.valid(), path, (text) => {
              const i = Math.min(1 + Math.floor(at * (text.length - 1)), text.length - 1);
              return `${text.slice(0, i)}${chars}${text.slice(i)}`;
            });
            const before = await snapshot();
            const res = await send(
              route.method,
              `/api/v1${route.path.replace(':id', String(route.id?.()))}${route.query}`,
              { 'content-type': 'application/json', authorization: account.authorization },
              JSON.stringify(body),
            );
            expect(res.body).not.toMatch(LEAKS);
            apiEnvelope(res);
            const answer = JSON.parse(res.body) as { error: string };
            expect({ path, status: res.status, error: answer.error }).toEqual({
              path,
              status: 400,
              error: `invalid_${snake(String(path[0]))}`,
            });
            expect(await snapshot()).toBe(before);
          }),
          { numRuns: RUNS },
        );
      },
    );
  });

  it.each(apiRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', async (_, route) => {
    await fc.assert(
      fc.asyncProperty(
        idOf(route),
        queryFor(route),
        bodyOf(route),
        contentTypes,
        authorizations,
        fc.option(printable),
        async (id, query, payload, contentType, authorization, requestId) => {
          const url = `/api/v1${route.path.replace(':id', id)}${query}`;
          await checked(
            () =>
              send(
                route.method,
                url,
                {
                  'content-type': contentType,
                  authorization:
                    authorization === 'valid'
                      ? account.authorization
                      : authorization === ''
                        ? basicAuth(account.id + 1, account.apiKey)
                        : authorization,
                  'x-request-id': requestId ?? undefined,
                },
                payload,
              ),
            apiEnvelope,
          );
        },
      ),
      { numRuns: RUNS },
    );
  });

  describe('/oauth2', () => {
    const formOf = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const nearValidForm = (valid: () => Record<string, string>) =>
      fc.oneof(
        fc
          .tuple(fc.constantFrom(...Object.keys(valid())), printable)
          .map(([key, value]) => formOf({ ...valid(), [key]: value })),
        fc
          .dictionary(fc.oneof(KEYS, fc.constant('__proto__')), printable, { maxKeys: 3 })
          .map((extra) => `${formOf(valid())}&${formOf(extra)}`),
        fc.constantFrom(...Object.keys(valid())).map((key) => `${formOf(valid())}&${key}=again`),
        fc.string({ maxLength: 40 }),
        fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
      );

    /** The token and disconnect endpoints answer errors as `{error, message}`. */
    function oauthEnvelope(sent: Sent): void {
      expect(sent.contentType).toMatch(/^application\/json/);
      const body = JSON.parse(sent.body) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
      expect(body.error).toMatch(/^[a-z_]+$/);
    }

    /** The sign-in and consent forms answer with a page, or with the OAuth shape before them. */
    function pageOrOAuthEnvelope(sent: Sent): void {
      if (sent.contentType.startsWith('text/html')) {
        expect(sent.body).toMatch(/^<!doctype html>/);
        return;
      }
      oauthEnvelope(sent);
    }

    const tokenForm = () => ({
      grant_type: 'authorization_code',
      code: 'a'.repeat(64),
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      client_secret: client.clientSecret,
      code_verifier: 'v'.repeat(43),
    });
    const disconnectForm = () => ({
      access_token: 'b'.repeat(64),
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    const loginForm = () => ({ csrf: 'c'.repeat(64), email: 'owner@example.test', password: 'pw' });
    const consentForm = () => ({ csrf: 'c'.repeat(64), decision: 'allow' });
    const authorizeQuery = () =>
      `?${new URLSearchParams({
        response_type: 'code',
        scope: 'api-v1',
        client_id: client.clientId,
        redirect_uri: client.redirectUri,
        state: 's',
      }).toString()}`;

    const routes: [string, () => Record<string, string>, (sent: Sent) => void, boolean][] = [
      ['/oauth2/token', tokenForm, oauthEnvelope, false],
      ['/oauth2/disconnect', disconnectForm, oauthEnvelope, false],
      ['/oauth2/login', loginForm, pageOrOAuthEnvelope, true],
      ['/oauth2/authorize', consentForm, pageOrOAuthEnvelope, true],
      ['/oauth2/logout', consentForm, pageOrOAuthEnvelope, true],
    ];

    it.each(routes)('POST %s', async (path, valid, envelope, withQuery) => {
      await fc.assert(
        fc.asyncProperty(
          nearValidForm(valid),
          fc.oneof(
            fc.constant(withQuery ? authorizeQuery() : ''),
            queryOf,
            fc.constant(`${authorizeQuery()}&client_id=again`),
          ),
          contentTypes,
          fc.option(printable),
          async (payload, query, contentType, authorization) => {
            await checked(
              () =>
                send(
                  'POST',
                  `${path}${query}`,
                  {
                    'content-type': contentType,
                    authorization: authorization ?? undefined,
                    'x-forwarded-for': '10.9.9.9',
                  },
                  payload,
                ),
              envelope,
            );
          },
        ),
        { numRuns: RUNS },
      );
    });
  });
});
