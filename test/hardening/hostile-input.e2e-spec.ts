import { connect } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiResponse, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { PlatformProbeController } from '../support/platform-probe.controller';
import { type TestAccount, createAccount, startApi } from '../support/test-app';

const API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
};

/** Sends raw bytes on a socket and returns what comes back until the server closes it. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      // The server may close while the rest of a huge request is still being written.
      err.code === 'ECONNRESET' || err.code === 'EPIPE' ? resolve(answer) : reject(err),
    );
    socket.on('close', () => resolve(answer));
    socket.write(request);
  });
}

function parseRaw(answer: string): {
  status: number;
  headers: Record<string, string>;
  body: unknown;
} {
  const [head, body] = answer.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

function nested(depth: number): string {
  return `{"name":"Ada","deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
}

describe('Hardening: hostile input is refused in the envelope; security headers everywhere (e2e)', () => {
  let app: NestFastifyApplication;
  let account: TestAccount;
  let port: number;

  beforeAll(async () => {
    app = await startApi({ controllers: [PlatformProbeController] });
    await app.listen(0, '127.0.0.1');
    port = Number(new URL(await app.getUrl()).port);
    account = await createAccount(app);
  });
  afterAll(() => app.close());

  const post = (payload: string, url = '/api/v1/probe/echo') =>
    app.inject({
      method: 'POST',
      url,
      headers: { authorization: account.authorization, 'content-type': 'application/json' },
      payload,
    });

  describe('bodies', () => {
    it('refuses a body over 1 MiB with 413', async () => {
      const res = await post(JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        status_code: 413,
        message: 'The request body is larger than 1048576 bytes.',
        error: 'payload_too_large',
      });
      expect(res.headers).toMatchObject(API_HEADERS);
    });

    it('refuses JSON nested deeper than 32 levels, however deep', async () => {
      const expected = {
        status_code: 400,
        message: 'The JSON body is nested deeper than 32 levels.',
        error: 'bad_request',
      };
      for (const depth of [33, 100_000]) {
        const res = await post(nested(depth));
        expect({ depth, status: res.statusCode, body: res.json() }).toEqual({
          depth,
          status: 400,
          body: expected,
        });
      }
      // 32 levels are fine (the unknown attribute is then dropped).
      const ok = await post(nested(32));
      expect(ok.statusCode).toBe(201);
      expect(ok.json()).toEqual({ name: 'Ada' });
    });

    it.each([
      [
        { name: 'x'.repeat(16_001) },
        'invalid_name',
        'Attribute "name" is longer than 16000 characters.',
      ],
      [
        { name: 'Ada', fields: [{ id: 1, value: 'y'.repeat(20_000) }] },
        'invalid_fields',
        'Attribute "fields.0.value" is longer than 16000 characters.',
      ],
      [
        { name: 'Ada', 'not an attribute': 'z'.repeat(16_001) },
        'bad_request',
        'A string in the body is longer than 16000 characters.',
      ],
    ])('refuses a string over 16,000 characters (%#)', async (body, error, message) => {
      const res = await post(JSON.stringify(body));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status_code: 400, message, error });
    });

    it.each([
      ['{"name":"\\ud800"}', 'invalid_name', 'Invalid "name" attribute value.'],
      [
        '{"name":"Ada","tags":["ok","\\udc00 x"]}',
        'invalid_tags',
        'Invalid "tags.1" attribute value.',
      ],
    ])(
      'refuses a string that is not text (a lone surrogate): %s',
      async (payload, error, message) => {
        const res = await post(payload);
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ status_code: 400, message, error });
      },
    );

    it('takes 16,000 characters (the attribute may have a tighter limit of its own)', async () => {
      const res = await post(JSON.stringify({ name: 'x'.repeat(16_000) }));
      expect(res.statusCode).toBe(201);
    });

    it('keeps __proto__ and constructor keys harmless, at any depth', async () => {
      const res = await post(
        '{"name":"Ada","a":{"__proto__":{"polluted":1}},"b":[{"constructor":{"prototype":{"polluted":2}}}],"__proto__":{"isAdmin":true}}',
      );
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ name: 'Ada' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });
  });

  it('drops keys named after Object.prototype members at any depth, escaped ones too', async () => {
    const api = apiClient(app, account);
    const calendarID = await createCalendar(api);
    for (const timezone of [
      '{"toString":1}',
      '{"\\u0074oString":1,"valueOf":{"hasOwnProperty":2}}',
    ]) {
      const res = await app.inject({
        method: 'PUT',
        url: `/api/v1/calendars/${calendarID}`,
        headers: { authorization: account.authorization, 'content-type': 'application/json' },
        payload: `{"timezone":${timezone}}`,
      });
      expect({ timezone, status: res.statusCode, body: res.json() }).toEqual({
        timezone,
        status: 400,
        body: { status_code: 400, message: 'Invalid timezone "{}".', error: 'invalid_timezone' },
      });
    }
  });

  it('refuses client details longer than their columns, to admins too (the fuzz test found a 500)', async () => {
    const api = apiClient(app, account);
    const calendarID = await createCalendar(api);
    const appointmentTypeID = await createAppointmentType(api, { calendarIDs: [calendarID] });
    const booking = {
      appointmentTypeID,
      calendarID,
      datetime: '2031-03-03T10:00',
      firstName: 'Ada',
      lastName: 'Client',
      email: 'ada@example.test',
    };
    const cases: [Record<string, string>, string, string][] = [
      [
        { firstName: 'x'.repeat(256) },
        'invalid_first_name',
        'Invalid "firstName" attribute value.',
      ],
      [{ lastName: 'x'.repeat(256) }, 'invalid_last_name', 'Invalid "lastName" attribute value.'],
      [
        { email: `${'x'.repeat(250)}@example.test` },
        'invalid_email',
        'Invalid "email" attribute value.',
      ],
      [{ phone: '1'.repeat(65) }, 'invalid_phone', 'Invalid "phone" attribute value.'],
    ];
    for (const [change, error, message] of cases) {
      expect(await api.post('/appointments?admin=true', { ...booking, ...change })).toMatchObject(
        apiError(400, error, message),
      );
    }
    const booked = await api.post('/appointments?admin=true', {
      ...booking,
      firstName: 'y'.repeat(255),
      phone: '1'.repeat(64),
    });
    expect(booked.status).toBe(200);
    expect(booked.body).toMatchObject({ firstName: 'y'.repeat(255), phone: '1'.repeat(64) });
    for (const [change, error, message] of cases) {
      expect(await api.put(`/appointments/${booked.body.id}?admin=true`, change)).toMatchObject(
        apiError(400, error, message),
      );
    }
  });

  /*
   * Issue 20: every text attribute of what an account sets up or sells refuses control and bidi
   * characters: a one-line one (names, categories, locations, options, e-mails, phones) any of
   * them, line breaks and tabs included; a multi-line one (descriptions, notes) all but CR, LF and
   * TAB. An e-mail is one address, a phone phone characters. On create and update, nothing stored.
   * (The client's details of appointments: test/appointments/book-inputs.)
   */
  describe('control and bidi characters (issue 20)', () => {
    type Kind = 'one-line' | 'multi-line' | 'email' | 'phone';
    type Body = Record<string, unknown>;

    /** Issue 20's characters, as `U+XXXX` (see book-inputs): multi-line attributes take CR, LF, TAB. */
    const CONTROLS = [
      ...'\u0000\u0007\u001B\u007F\u0085\u009B\u2028\u2029\u202E\u2066\u2069\r\n\t',
    ];
    const named = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

    /** A value of the kind with `chars` inside. */
    const around: Record<Kind, (chars: string) => string> = {
      'one-line': (chars) => `Ada${chars}Lovelace`,
      'multi-line': (chars) => `Ada${chars}Lovelace`,
      email: (chars) => `ada${chars}@example.test`,
      phone: (chars) => `555${chars}0100`,
    };

    /** What a kind refuses besides control characters. */
    const ALSO_REFUSED: Record<Kind, string[]> = {
      'one-line': [],
      'multi-line': [],
      email: ['a@x.test,b@x.test', 'g: a@x.test, b@x.test;', '"a,b"@x.test', 'Ada <a@x.test>'],
      phone: ['call me', '555-0100, 555-0101', '555+0100', '５５５-０１００'],
    };

    /** What a kind takes: every script, and line breaks where multi-line. */
    const TAKEN: Record<Kind, string[]> = {
      'one-line': ['Zoë O’Brien-Smith', '王小明 😀', 'שרה\u200F'],
      'multi-line': ['First line.\r\nSecond line.\n\tIndented — Zoë 王 😀'],
      email: ['zoë@example.test', "o'brien-smith@example.test"],
      phone: ['+1 (555) 010-0199', '+44 20 7946 0958', '555.010.0199', '555-0100 ext. 12'],
    };

    const ONE_NAME: Record<string, Kind> = { name: 'one-line' };
    let api: ReturnType<typeof apiClient>;
    const ids: Record<string, number> = {};
    let day = 0;
    /** A day of its own for each class session or block (from 2031-01-01). */
    const nextDay = () => new Date(Date.UTC(2031, 0, 1 + day++)).toISOString().slice(0, 10);

    beforeAll(async () => {
      api = apiClient(app, await createAccount(app));
      ids.calendar = await createCalendar(api);
      ids.classType = await createAppointmentType(api, {
        type: 'class',
        classSize: 5,
        calendarIDs: [ids.calendar],
      });
      const gift = await api.post('/products', { name: 'Gift', price: '10.00', type: 'gift' });
      ids.product = (gift.body as { id: number }).id;
    });

    /**
     * Each resource: what creates one, whether it may be updated (PUT /<resource>/{id}), and its
     * text attributes with their kinds.
     */
    const RESOURCES: Record<
      string,
      { create: () => Body; update: boolean; text: Record<string, Kind> }
    > = {
      calendars: {
        create: () => ({ name: 'Room' }),
        update: true,
        text: {
          name: 'one-line',
          location: 'one-line',
          email: 'email',
          replyTo: 'email',
          description: 'multi-line',
        },
      },
      'appointment-types': {
        create: () => ({ name: 'Consultation', duration: 30 }),
        update: true,
        text: { name: 'one-line', category: 'one-line', description: 'multi-line' },
      },
      'appointment-addons': { create: () => ({ name: 'Extra' }), update: true, text: ONE_NAME },
      labels: { create: () => ({ name: 'VIP' }), update: true, text: ONE_NAME },
      forms: {
        create: () => ({ name: 'Intake' }),
        update: true,
        text: { name: 'one-line', description: 'multi-line' },
      },
      products: {
        create: () => ({ name: 'Gift', price: '10.00', type: 'gift' }),
        update: true,
        text: { name: 'one-line', description: 'multi-line' },
      },
      coupons: {
        create: () => ({ name: 'Spring', discountType: 'percentage', discountAmount: 10 }),
        update: true,
        text: ONE_NAME,
      },
      classes: {
        create: () => ({
          appointmentTypeID: ids.classType,
          calendarID: ids.calendar,
          datetime: `${nextDay()}T10:00`,
        }),
        update: false,
        text: ONE_NAME,
      },
      blocks: {
        create: () => {
          const date = nextDay();
          return { calendarID: ids.calendar, start: `${date}T10:00`, end: `${date}T11:00` };
        },
        update: false,
        text: { notes: 'multi-line' },
      },
      orders: {
        create: () => ({
          productID: ids.product,
          firstName: 'Bo',
          lastName: 'Buyer',
          email: 'bo@example.test',
        }),
        update: false,
        text: {
          firstName: 'one-line',
          lastName: 'one-line',
          email: 'email',
          phone: 'phone',
          notes: 'multi-line',
        },
      },
      certificates: {
        create: () => ({ productID: ids.product }),
        update: false,
        text: { email: 'email' },
      },
    };

    /** A text attribute: the body part carrying `value`, how errors name it, its code. */
    interface TextAttribute {
      resource: string;
      at: (value: string) => Body;
      shown: string;
      code: string;
      kind: Kind;
    }

    const ATTRIBUTES: TextAttribute[] = [
      ...Object.entries(RESOURCES).flatMap(([resource, { text }]) =>
        Object.entries(text).map(([name, kind]) => ({
          resource,
          at: (value: string) => ({ [name]: value }),
          shown: name,
          code: `invalid_${name.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()}`,
          kind,
        })),
      ),
      // A form's fields: their names and a dropdown's options.
      ...[
        (value: string) => ({ fields: [{ name: value, type: 'textbox' }] }),
        (value: string) => ({
          fields: [{ name: 'Size', type: 'dropdown', options: ['S', value] }],
        }),
      ].map((at, i) => ({
        resource: 'forms',
        at,
        shown: i === 0 ? 'fields.0.name' : 'fields.0.options',
        code: 'invalid_fields',
        kind: 'one-line' as const,
      })),
    ];

    /** The account's resources as the API lists them: a refused request changes none. */
    async function stored(): Promise<unknown[]> {
      const lists = [...Object.keys(RESOURCES), 'appointment-types?includeDeleted=true'];
      return Promise.all(lists.map(async (path) => (await api.get(`/${path}`)).body as unknown));
    }

    /** Where values of the attribute go: a create, or an update of a resource made for it. */
    async function target(
      a: TextAttribute,
      method: 'POST' | 'PUT',
    ): Promise<(value: string) => Promise<ApiResponse>> {
      const { create } = RESOURCES[a.resource];
      if (method === 'POST')
        return (value) => api.post(`/${a.resource}`, { ...create(), ...a.at(value) });
      const { id } = (await api.post(`/${a.resource}`, create())).body as { id: number };
      return (value) => api.put(`/${a.resource}/${id}`, a.at(value));
    }

    const cases = (['POST', 'PUT'] as const).flatMap((method) =>
      ATTRIBUTES.filter((a) => method === 'POST' || RESOURCES[a.resource].update).map(
        (a) => [`${method} /${a.resource}`, a.shown, method, a] as const,
      ),
    );

    it.each(cases)('%s: %s refuses what it must, nothing stored', async (_, __, method, a) => {
      const send = await target(a, method);
      const before = await stored();
      const refused = [
        ...CONTROLS.filter((c) => a.kind !== 'multi-line' || !'\r\n\t'.includes(c)).map((c) => [
          named(c),
          around[a.kind](c),
        ]),
        ...ALSO_REFUSED[a.kind].map((value) => [value, value]),
      ];
      for (const [what, value] of refused) {
        const res = await send(value);
        expect({ what, status: res.status, body: res.body }).toEqual({
          what,
          ...apiError(400, a.code, `Invalid "${a.shown}" attribute value.`),
        });
      }
      expect(await stored()).toEqual(before);
    });

    it.each(cases)('%s: %s takes what it must', async (_, __, method, a) => {
      const send = await target(a, method);
      for (const value of TAKEN[a.kind]) {
        const res = await send(value);
        expect({ value, status: res.status }).toEqual({ value, status: 200 });
      }
    });
  });

  describe('query strings and URLs', () => {
    it('keeps __proto__ and constructor query keys harmless', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/probe/ids?ids=1&__proto__[polluted]=1&constructor[prototype][polluted]=2',
        headers: { authorization: account.authorization },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ids: [1] });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('refuses a repeated parameter that takes one value', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/appointments?calendarID=1&calendarID=2',
        headers: { authorization: account.authorization },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status_code: 400,
        message: 'Invalid "calendarID" attribute value.',
        error: 'invalid_calendar_id',
      });
    });

    it('refuses a path parameter over 100 characters with 414', async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/probe/widgets/${'1'.repeat(101)}`,
        headers: { authorization: account.authorization },
      });
      expect(res.statusCode).toBe(414);
      expect(res.json()).toEqual({
        status_code: 414,
        message: 'URI Too Long',
        error: 'uri_too_long',
      });
      expect(res.headers).toMatchObject(API_HEADERS);
    });

    it('refuses a malformed URL with 400, without echoing it', async () => {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/probe/widgets/%E0%A4%A',
        headers: { authorization: account.authorization },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        status_code: 400,
        message: 'Bad Request',
        error: 'bad_request',
      });
      expect(res.headers).toMatchObject(API_HEADERS);
    });

    it.each([
      ['a header', `GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
      ['a query string', `GET /api/v1/me?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ])('answers headers and URL over 16 KiB (%s) with 431 in the envelope', async (_, request) => {
      const answer = parseRaw(await rawExchange(port, request));
      expect(answer.status).toBe(431);
      expect(answer.body).toEqual({
        status_code: 431,
        message: "The request's headers and URL are larger than 16384 bytes.",
        error: 'request_header_fields_too_large',
      });
      expect(answer.headers).toMatchObject({
        ...API_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        connection: 'close',
      });
    });

    it('answers a request that is not HTTP with 400 in the envelope', async () => {
      const answer = parseRaw(await rawExchange(port, 'HELLO\r\n\r\n'));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        status_code: 400,
        message: 'Bad Request',
        error: 'bad_request',
      });
    });
  });

  describe('security headers', () => {
    it.each([
      ['200', '/api/v1/me', true],
      ['401', '/api/v1/me', false],
      ['404', '/api/v1/nothing-here', true],
      ['500', '/api/v1/probe/crash', true],
      ['the OpenAPI document', '/api/v1/openapi.json', false],
      ['health', '/health/live', false],
    ])('on %s', async (_, url, authenticated) => {
      const res = await app.inject({
        method: 'GET',
        url,
        headers: authenticated ? { authorization: account.authorization } : {},
      });
      expect(res.headers).toMatchObject(API_HEADERS);
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('gives Swagger UI a policy that lets it run (its own scripts, styles, data: images)', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/v1/docs' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
    });

    it('leaves the OAuth pages their own policy', async () => {
      const res = await app.inject({ method: 'GET', url: '/oauth2/authorize' });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-security-policy']).toMatch(
        /^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
      );
    });

    it('adds HSTS where the service is reached over https', async () => {
      const { testConfig } = await import('../support/test-environment');
      const base = testConfig();
      const https = await startApi({
        config: base.with({ http: { ...base.http, publicUrl: 'https://booking.example.com' } }),
      });
      try {
        const res = await https.inject({ method: 'GET', url: '/health/live' });
        expect(res.headers['strict-transport-security']).toBe(
          'max-age=31536000; includeSubDomains',
        );
      } finally {
        await https.close();
      }
    });
  });
});
