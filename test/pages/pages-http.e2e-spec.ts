import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { type Shop, ZONE, bookThroughApi, emailOf, openShop } from './pages-fixtures';

const POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const BAD_LINK =
  'This link is not valid. Please use the link in your confirmation e-mail or text message.';
const FORM_EXPIRED =
  'This form has expired or did not come from this page. Please check your choices and send it again.';

/**
 * The pages over HTTP, as a hostile client sends: tokens that are not, another account's, forms
 * without or with a wrong CSRF token or from another site, bad field values; and what every page
 * answers with (CSP, noindex, framing).
 */
describe('Client pages over HTTP: safety (e2e)', () => {
  let app: NestFastifyApplication;
  let shop: Shop;

  beforeAll(async () => {
    app = await startApi();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    shop = await openShop(app);
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });
  const post = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: new URLSearchParams(form).toString(),
    });

  /** A page's CSRF token and the cookie it goes with. */
  async function formKey(url: string): Promise<{ csrf: string; cookie: string }> {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(res.body)![1];
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    return { csrf, cookie };
  }

  const book = (datetime?: string, s = shop) => bookThroughApi(s, datetime);

  const pathOf = (confirmationPage: string) => new URL(confirmationPage).pathname;
  const details = (s: Shop) =>
    `/schedule/${s.account.id}?appointmentType=${s.type}&datetime=${encodeURIComponent('2030-06-03T09:00:00-0400')}&timezone=${encodeURIComponent(ZONE)}`;

  it.each(['2030-02-31T09:00:00-0400', '2030-06-03T25:99-0400'])(
    'takes a time no day has (%s) as none chosen: the date step, never a 500',
    async (datetime) => {
      const res = await get(
        `/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&datetime=${encodeURIComponent(datetime)}&hold=abc`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('id="month"');
      expect(res.body).not.toContain('Invalid');
      expect(res.body).not.toContain(datetime);
    },
  );

  it.each([
    ['date', '2030-02-31'],
    ['date', '2030-13-45'],
    ['month', '2030-13'],
    ['month', '2030-00'],
  ])(
    'takes a %s no calendar has (%s) as none chosen: the date step, never a 500',
    async (name, value) => {
      const step = `/schedule/${shop.account.id}?appointmentType=${shop.type}&timezone=${encodeURIComponent(ZONE)}&${name}=${value}`;
      for (const url of [step, `${step}&part=times`]) {
        const res = await get(url);
        expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
        expect(res.body).toContain('id="month"');
        expect(res.body).not.toContain(value);
        expect(res.body).not.toContain('Invalid');
        expect(res.body).not.toContain('id="times"');
      }
    },
  );

  it('every page: strict CSP, noindex, no referrer, no cache, not framed; the assets are served', async () => {
    const page = await get(`/schedule/${shop.account.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': POLICY,
      'x-robots-tag': 'noindex, nofollow',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    });
    expect(page.headers['set-cookie']).toMatch(
      /^pages_csrf=[\w-]{22}; Path=\/; HttpOnly; SameSite=Lax$/,
    );
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow"/>');
    for (const [asset, type] of [
      ['pages.css', 'text/css; charset=utf-8'],
      ['pages.js', 'text/javascript; charset=utf-8'],
      ['embed.js', 'text/javascript; charset=utf-8'],
    ]) {
      const res = await get(`/pages/${asset}`);
      expect([res.statusCode, res.headers['content-type']]).toEqual([200, type]);
    }
    expect((await get('/pages/embed.js')).headers['cross-origin-resource-policy']).toBe(
      'cross-origin',
    );
    expect((await get('/pages/other.js')).statusCode).toBe(404);
  });

  it('frames only for the sites the account lists', async () => {
    await shop.api.put('/settings', {
      embedOrigins: ['https://shop.example', 'https://www.shop.example'],
    });
    const { confirmationPage } = await book();
    for (const url of [`/schedule/${shop.account.id}`, pathOf(confirmationPage)]) {
      const res = await get(url);
      expect(res.headers['content-security-policy']).toBe(
        POLICY.replace(
          "frame-ancestors 'none'",
          'frame-ancestors https://shop.example https://www.shop.example',
        ),
      );
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
  });

  it("the date step of a type named with a date and a zone shows the type's calendars and addons, and no type the page does not offer", async () => {
    const step = (type: number, s = shop) =>
      `/schedule/${s.account.id}?appointmentType=${type}&timezone=${encodeURIComponent(ZONE)}&date=2030-06-03`;
    const second = await createCalendar(shop.api, {
      name: 'Dr. Jones',
      timezone: ZONE,
      hours: { monday: [{ start: '09:00', end: '10:00' }] },
    });
    await shop.api.put(`/appointment-types/${shop.type}`, {
      calendarIDs: [shop.calendar, second],
    });
    const page = await get(step(shop.type));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<strong>Consultation</strong>, 30 minutes, $40.00');
    // Each calendar a link to the month's dates with it; none chosen yet: anyone's dates.
    const withCalendar = (id?: number) =>
      `/schedule/${shop.account.id}?appointmentType=${shop.type}${id ? `&amp;calendarID=${id}` : ''}&amp;timezone=${encodeURIComponent(ZONE)}&amp;month=2030-06`;
    expect(page.body).toContain(
      `<a href="${withCalendar()}" aria-current="true">Anyone available</a>`,
    );
    expect(page.body).toContain(`<a href="${withCalendar(shop.calendar)}">Dr. Smith</a>`);
    expect(page.body).toContain(`<a href="${withCalendar(second)}">Dr. Jones</a>`);
    expect(page.body).toContain('Scalp massage');
    expect(page.body).toContain('aria-label="Monday, June 3, 2030" aria-current="true">3</a>');
    expect(page.body).toContain(
      '<button type="submit" name="datetime" value="2030-06-03T09:00:00-0400">9:00am</button>',
    );

    const closed = 'No appointments can be booked here at the moment.';
    const inactive = await createAppointmentType(shop.api, {
      name: 'Closed for now',
      duration: 30,
      active: false,
      calendarIDs: [shop.calendar],
    });
    const uncalendared = await createAppointmentType(shop.api, { name: 'Nowhere', duration: 30 });
    const deleted = await createAppointmentType(shop.api, {
      name: 'Gone',
      duration: 30,
      calendarIDs: [shop.calendar],
    });
    await shop.api.delete(`/appointment-types/${deleted}`);
    const other = await openShop(app, 'Other Clinic');
    for (const url of [
      step(inactive),
      step(uncalendared),
      step(deleted),
      step(other.type),
      step(shop.type, other),
    ]) {
      const res = await get(url);
      expect({ url, status: res.statusCode, closed: res.body.includes(closed) }).toEqual({
        url,
        status: 200,
        closed: true,
      });
      expect(res.body).not.toContain('id="month"');
    }
  });

  it('private types only by their link; hidden forms are not shown', async () => {
    const secret = (
      await shop.api.post('/appointment-types', {
        name: 'Secret menu',
        duration: 30,
        private: true,
        calendarIDs: [shop.calendar],
      })
    ).body as { id: number };
    await shop.api.post('/forms', {
      name: 'Staff notes',
      hidden: true,
      fields: [{ name: 'Internal rating', type: 'textbox' }],
      appointmentTypeIDs: [shop.type],
    });
    const list = await get(`/schedule/${shop.account.id}`);
    expect(list.body).toContain('Consultation');
    expect(list.body).not.toContain('Secret menu');
    const linked = await get(`/schedule/${shop.account.id}?appointmentType=${secret.id}`);
    expect(linked.body).toContain('Secret menu');
    const form = await get(details(shop));
    expect(form.body).toContain('What brings you in?');
    expect(form.body).not.toContain('Internal rating');
    // SMS permission is asked only where the type requires it; the phone only when the account does.
    expect(form.body).not.toContain('name="smsOptIn"');
    expect(form.body).toContain('<label for="phone">Phone number</label>');
    await shop.api.put(`/appointment-types/${shop.type}`, { requireSmsOptIn: true });
    await shop.api.put('/settings', { requirePhone: true });
    const asking = await get(details(shop));
    expect(asking.body).toContain('name="smsOptIn"');
    expect(asking.body).toContain(
      '<label for="phone">Phone number<span class="required"> (required)</span></label>',
    );
  });

  it("a page that does not exist, a token that is none, or not this appointment's: 404, nothing shown", async () => {
    const other = await openShop(app, 'Other Clinic');
    const mine = await book();
    const theirs = await book('2030-06-03T11:00:00-0400', other);
    const [, myMac] = /\/confirmation\/\d+-([0-9a-f]{32})$/.exec(mine.confirmationPage)!;
    for (const url of [
      '/schedule/abc',
      '/schedule/0',
      '/schedule/99999999',
      '/confirmation/garbage',
      `/confirmation/${mine.id}-${'0'.repeat(32)}`,
      `/confirmation/${mine.id}-${myMac.slice(0, 20)}`,
      `/confirmation/${mine.id}-${myMac.toUpperCase()}`,
      // One account's token with another's appointment id.
      `/confirmation/${theirs.id}-${myMac}`,
      `/confirmation/${theirs.id}-${myMac}/appointment.ics`,
      `/confirmation/${theirs.id}-${myMac}/reschedule`,
    ]) {
      const res = await get(url);
      expect([url, res.statusCode, res.headers['content-type']]).toEqual([
        url,
        404,
        'text/html; charset=utf-8',
      ]);
      expect(res.body).not.toContain('Other Clinic');
      expect(res.body).not.toContain('Ada');
    }
    expect((await get(`/confirmation/garbage`)).body).toContain(BAD_LINK);
    const cancel = await post(`/confirmation/${theirs.id}-${myMac}/cancel`, { csrf: 'x' });
    expect(cancel.statusCode).toBe(404);
    expect((await other.api.get(`/appointments/${theirs.id}`)).body).toMatchObject({
      canceled: false,
    });
  });

  it('a form without the CSRF token, with a wrong one, or from another site: 403, nothing done', async () => {
    const { confirmationPage, id } = await book();
    const page = pathOf(confirmationPage);
    const key = await formKey(page);
    const attempts: [Record<string, string>, Record<string, string>][] = [
      [{}, { cookie: key.cookie }],
      [{ csrf: key.csrf }, {}],
      [{ csrf: `${key.csrf}x` }, { cookie: key.cookie }],
      [{ csrf: key.csrf }, { cookie: 'pages_csrf=AAAAAAAAAAAAAAAAAAAAAA' }],
      [{ csrf: key.csrf }, { cookie: key.cookie, 'sec-fetch-site': 'cross-site' }],
    ];
    for (const [form, headers] of attempts) {
      const res = await post(`${page}/cancel`, form, headers);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain(FORM_EXPIRED);
      const moved = await post(
        `${page}/reschedule`,
        { ...form, datetime: '2030-06-10T10:00:00-0400' },
        headers,
      );
      expect(moved.statusCode).toBe(403);
    }
    expect((await shop.api.get(`/appointments/${id}`)).body).toMatchObject({
      canceled: false,
      datetime: '2030-06-03T10:00:00-0400',
    });
    // The scheduling page's form: nothing booked without its token.
    const booking = await post(`/schedule/${shop.account.id}`, {
      appointmentType: String(shop.type),
      datetime: '2030-06-03T09:00:00-0400',
      firstName: 'Eve',
      lastName: 'Forger',
      email: emailOf('csrf'),
      [`field:${shop.form.consent}`]: 'yes',
    });
    expect(booking.statusCode).toBe(403);
    expect((await shop.api.get('/appointments?firstName=Eve')).body).toEqual([]);
    // Another account's token does not open this one's form.
    const other = await openShop(app, 'Other Clinic');
    const theirs = await formKey(details(other));
    const crossed = await post(
      `/schedule/${shop.account.id}`,
      {
        csrf: theirs.csrf,
        appointmentType: String(shop.type),
        datetime: '2030-06-03T09:00:00-0400',
      },
      { cookie: theirs.cookie },
    );
    expect(crossed.statusCode).toBe(403);
  });

  it("bad values get the field's error on the page, never a 500; JSON is refused", async () => {
    const key = await formKey(details(shop));
    const form = {
      csrf: key.csrf,
      appointmentType: String(shop.type),
      datetime: '2030-06-03T09:00:00-0400',
      timezone: ZONE,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: emailOf('bad'),
      [`field:${shop.form.consent}`]: 'yes',
    };
    const cases: [Record<string, string>, string, string][] = [
      [
        { [`field:${shop.form.size}`]: 'XXL' },
        `field-${shop.form.size}-error`,
        "This answer cannot be used: it must be one of the field's options.",
      ],
      [
        { [`field:${shop.form.consent}`]: 'maybe' },
        `field-${shop.form.consent}-error`,
        'This answer cannot be used: it must be "yes" or "no".',
      ],
      [{ email: 'not an address' }, 'email-error', 'Enter a valid e-mail address.'],
      [{ firstName: '' }, 'firstName-error', 'Enter your first name.'],
      [{ certificate: 'NOPE' }, 'certificate-error', 'This code is not valid.'],
      [
        { [`field:${shop.form.note}`]: 'x'.repeat(10_001) },
        `field-${shop.form.note}-error`,
        'This answer cannot be used: it must be at most 10000 characters.',
      ],
    ];
    for (const [change, id, message] of cases) {
      const res = await post(
        `/schedule/${shop.account.id}`,
        { ...form, ...change },
        { cookie: key.cookie },
      );
      expect([res.statusCode, res.headers['content-type']]).toEqual([
        400,
        'text/html; charset=utf-8',
      ]);
      const text = res.body
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
      expect(text).toContain(`<p class="field-error" id="${id}">${message}</p>`);
      expect(res.body).toContain(`aria-describedby="${id}"`);
    }
    // A hold that is not (or no longer) one: back to the times, nothing booked.
    const released = await post(
      `/schedule/${shop.account.id}`,
      { ...form, hold: 'x'.repeat(43) },
      { cookie: key.cookie },
    );
    expect(released.statusCode).toBe(409);
    expect(released.body).toContain(
      'The time held for you has been released. Please choose a time again.',
    );
    expect((await shop.api.get('/appointments')).body).toEqual([]);
    const json = await app.inject({
      method: 'POST',
      url: `/schedule/${shop.account.id}`,
      headers: { 'content-type': 'application/json', cookie: key.cookie },
      payload: JSON.stringify(form),
    });
    expect(json.statusCode).toBe(400);
    expect(json.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('cancel and reschedule exactly when the account allows it (clientChangeMinHours)', async () => {
    const soon = new Date(Date.now() + 3 * 3_600_000);
    soon.setUTCMinutes(0, 0, 0);
    const type = (
      await shop.api.post('/appointment-types', {
        name: 'Walk-in',
        duration: 30,
        calendarIDs: [shop.calendar],
      })
    ).body as { id: number };
    await shop.api.put(`/calendars/${shop.calendar}`, {
      hours: Object.fromEntries(
        ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [
          d,
          [{ start: '00:00', end: '24:00' }],
        ]),
      ),
    });
    const booked = await shop.api.post('/appointments?admin=true', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: emailOf('soon'),
      appointmentTypeID: type.id,
      calendarID: shop.calendar,
      datetime: soon.toISOString(),
    });
    expect(booked.status).toBe(200);
    const page = pathOf(booked.body.confirmationPage as string);
    expect((await get(page)).body).toContain('Cancel this appointment');
    // The form as the client loaded it before the owner changed the rule.
    const key = await formKey(page);
    await shop.api.put('/settings', { clientChangeMinHours: 24 });
    const closed = await get(page);
    expect(closed.body).not.toContain('Cancel this appointment');
    expect(closed.body).toContain('This appointment can no longer be changed online.');
    expect((await shop.api.get(`/appointments/${booked.body.id}`)).body).toMatchObject({
      canClientCancel: false,
      canClientReschedule: false,
    });
    const refused = await post(`${page}/cancel`, { csrf: key.csrf }, { cookie: key.cookie });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain(
      `The appointment &quot;${booked.body.id}&quot; starts in less than 24 hours; only an admin can cancel it.`,
    );
    expect((await shop.api.put(`/appointments/${booked.body.id}/cancel`, {})).body).toMatchObject({
      error: 'cancel_not_allowed',
    });
  });

  it('a reschedule and a cancel on the confirmation page show in /availability/times at once', async () => {
    // A shop of its own: no slot hold on its calendar, so that its /times answers are kept
    // (AvailabilityAnswers), and only the page's own epoch bump can make them fresh.
    const s = await openShop(app);
    const times = async () =>
      (
        (await s.api.get(`/availability/times?appointmentTypeID=${s.type}&date=2030-06-03`))
          .body as { time: string }[]
      ).map((t) => t.time);
    const [ten, eleven] = ['2030-06-03T10:00:00-0400', '2030-06-03T11:00:00-0400'];
    const page = pathOf((await book(ten, s)).confirmationPage);
    expect(await times()).toEqual(expect.not.arrayContaining([ten]));
    expect(await times()).toEqual(expect.arrayContaining([eleven]));

    let key = await formKey(page);
    const moved = await post(
      `${page}/reschedule`,
      { csrf: key.csrf, datetime: eleven, timezone: ZONE },
      { cookie: key.cookie },
    );
    expect(moved.statusCode).toBe(303);
    expect(await times()).toEqual(expect.arrayContaining([ten]));
    expect(await times()).toEqual(expect.not.arrayContaining([eleven]));

    key = await formKey(page);
    const canceled = await post(`${page}/cancel`, { csrf: key.csrf }, { cookie: key.cookie });
    expect(canceled.statusCode).toBe(303);
    expect(await times()).toEqual(expect.arrayContaining([ten, eleven]));
  });

  it('the pages are not in the API document', async () => {
    const doc = (await get('/api/v1/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(
      Object.keys(doc.paths).filter((p) => /^\/(schedule|confirmation|pages)\//.test(p)),
    ).toEqual([]);
  });
});

describe('Client pages: the per-IP request limits apply (e2e)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const base = testConfig();
    app = await startApi({
      config: base.with({
        limits: { enabled: true, perSecond: 10, concurrent: 20, slotTtlMs: 60_000 },
        http: { ...base.http, trustProxy: 'loopback' },
      }),
    });
  });
  afterAll(() => app.close());

  it('15 quick page loads from one address: 10 pass, 5 get 429; another address is served', async () => {
    const shop = await openShop(app);
    const load = (client: string) =>
      app.inject({
        method: 'GET',
        url: `/schedule/${shop.account.id}`,
        headers: { 'x-forwarded-for': client },
      });
    const answers = await Promise.all(Array.from({ length: 15 }, () => load('203.0.113.77')));
    const counts: Record<number, number> = {};
    for (const a of answers) counts[a.statusCode] = (counts[a.statusCode] ?? 0) + 1;
    expect(counts).toEqual({ 200: 10, 429: 5 });
    expect((await load('203.0.113.78')).statusCode).toBe(200);
  });
});
