import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';

describe('Settings: /settings (e2e)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await startApi();
  });

  afterAll(() => app.close());

  const newOwner = async (): Promise<ApiClient> =>
    apiClient(app, await createAccount(app, { timezone: 'America/Chicago' }));

  it('reads the defaults of a new account', async () => {
    const api = await newOwner();
    expect(await api.get('/settings')).toMatchObject({ status: 200 });
    expect((await api.get('/settings')).body).toEqual({
      timezone: 'America/Chicago',
      minHoursInAdvance: 0,
      maxDaysInAdvance: 60,
      requirePhone: false,
      sendConfirmationEmail: true,
      sendSms: true,
      reminderHours: 24,
      calendarSyncMinutes: 5,
      holdMaxMinutes: 30,
      maxLiveHolds: 100,
      pageHoldsPerAddress: 3,
      pageHoldDayShare: 50,
      clientChangeMinHours: 0,
      firstDayOfWeek: 0,
      embedOrigins: [],
      language: 'en',
      accentColor: null,
      logoUrl: null,
    });
  });

  it('changes what is given and keeps the rest; GET /me shows the new zone at once', async () => {
    const api = await newOwner();
    const updated = await api.put('/settings', {
      timezone: 'Europe/Berlin',
      minHoursInAdvance: 12,
      requirePhone: true,
      sendSms: false,
      reminderHours: 2,
      calendarSyncMinutes: 15,
      holdMaxMinutes: 10,
      maxLiveHolds: 7,
      pageHoldsPerAddress: 0,
      pageHoldDayShare: 100,
      clientChangeMinHours: 24,
      firstDayOfWeek: 1,
      embedOrigins: ['https://Shop.example', 'http://localhost:8080', 'https://shop.example/'],
    });
    const expected = {
      timezone: 'Europe/Berlin',
      minHoursInAdvance: 12,
      maxDaysInAdvance: 60,
      requirePhone: true,
      sendConfirmationEmail: true,
      sendSms: false,
      reminderHours: 2,
      calendarSyncMinutes: 15,
      holdMaxMinutes: 10,
      maxLiveHolds: 7,
      pageHoldsPerAddress: 0,
      pageHoldDayShare: 100,
      clientChangeMinHours: 24,
      firstDayOfWeek: 1,
      // As CSP names them: lower case, no trailing slash, each once.
      embedOrigins: ['https://shop.example', 'http://localhost:8080'],
      language: 'en',
      accentColor: null,
      logoUrl: null,
    };
    expect(updated).toMatchObject({ status: 200 });
    expect(updated.body).toEqual(expected);
    expect((await api.get('/settings')).body).toEqual(expected);
    expect((await api.get('/me')).body).toMatchObject({ timezone: 'Europe/Berlin' });

    expect((await api.put('/settings', { maxDaysInAdvance: 365 })).body).toEqual({
      ...expected,
      maxDaysInAdvance: 365,
    });
    expect((await api.put('/settings')).body).toEqual({ ...expected, maxDaysInAdvance: 365 });
    // 0 turns reminders off.
    expect((await api.put('/settings', { reminderHours: 0 })).body).toEqual({
      ...expected,
      maxDaysInAdvance: 365,
      reminderHours: 0,
    });
  });

  it('sets the language, the accent colour and the logo each alone; null resets the last two', async () => {
    const api = await newOwner();
    const defaults = (await api.get('/settings')).body as Record<string, unknown>;
    const put = async (body: Record<string, unknown>, changed: Record<string, unknown>) => {
      const res = await api.put('/settings', body);
      expect(res).toMatchObject({ status: 200 });
      expect(res.body).toEqual({ ...defaults, ...changed });
      expect((await api.get('/settings')).body).toEqual({ ...defaults, ...changed });
    };

    await put({ language: 'es' }, { language: 'es' });
    // Stored lower case: what the pages put in their stylesheet.
    await put({ accentColor: '#1A73E8' }, { language: 'es', accentColor: '#1a73e8' });
    const logo = 'https://cdn.shop.example:8443/brand/logo.svg?v=2';
    await put({ logoUrl: logo }, { language: 'es', accentColor: '#1a73e8', logoUrl: logo });
    // As the URL parser writes it: the host lower case, the root path given.
    await put(
      { logoUrl: 'https://Shop.Example' },
      { language: 'es', accentColor: '#1a73e8', logoUrl: 'https://shop.example/' },
    );
    await put(
      { language: 'de', minHoursInAdvance: 3 },
      {
        language: 'de',
        minHoursInAdvance: 3,
        accentColor: '#1a73e8',
        logoUrl: 'https://shop.example/',
      },
    );
    // The darkest and the lightest allowed: black, and #767676 (4.54:1 against white).
    await put(
      { accentColor: '#000000' },
      {
        language: 'de',
        minHoursInAdvance: 3,
        accentColor: '#000000',
        logoUrl: 'https://shop.example/',
      },
    );
    await put(
      { accentColor: '#767676' },
      {
        language: 'de',
        minHoursInAdvance: 3,
        accentColor: '#767676',
        logoUrl: 'https://shop.example/',
      },
    );
    await put(
      { accentColor: null },
      {
        language: 'de',
        minHoursInAdvance: 3,
        logoUrl: 'https://shop.example/',
      },
    );
    await put({ logoUrl: null }, { language: 'de', minHoursInAdvance: 3 });
    await put({ language: 'en', minHoursInAdvance: 0 }, {});
  });

  it("changes only the caller's own settings", async () => {
    const [first, second] = [await newOwner(), await newOwner()];
    await first.put('/settings', { sendConfirmationEmail: false });
    expect((await second.get('/settings')).body).toMatchObject({ sendConfirmationEmail: true });
  });

  it.each([
    [{ timezone: 'Mars/Olympus' }, 'invalid_timezone', 'Invalid timezone "Mars/Olympus".'],
    [{ timezone: 'EST5EDT-nope' }, 'invalid_timezone', 'Invalid timezone "EST5EDT-nope".'],
    [{ timezone: 7 }, 'invalid_timezone', 'Invalid "timezone" attribute value.'],
    [
      { minHoursInAdvance: -1 },
      'invalid_min_hours_in_advance',
      'Invalid "minHoursInAdvance" attribute value.',
    ],
    [
      { maxDaysInAdvance: 0 },
      'invalid_max_days_in_advance',
      'Invalid "maxDaysInAdvance" attribute value.',
    ],
    [
      { maxDaysInAdvance: '30' },
      'invalid_max_days_in_advance',
      'Invalid "maxDaysInAdvance" attribute value.',
    ],
    [{ requirePhone: 'true' }, 'invalid_require_phone', 'Invalid "requirePhone" attribute value.'],
    [{ sendSms: null }, 'invalid_send_sms', 'Invalid "sendSms" attribute value.'],
    [{ reminderHours: -1 }, 'invalid_reminder_hours', 'Invalid "reminderHours" attribute value.'],
    [{ reminderHours: 721 }, 'invalid_reminder_hours', 'Invalid "reminderHours" attribute value.'],
    [{ reminderHours: 1.5 }, 'invalid_reminder_hours', 'Invalid "reminderHours" attribute value.'],
    [{ reminderHours: '24' }, 'invalid_reminder_hours', 'Invalid "reminderHours" attribute value.'],
    [
      { calendarSyncMinutes: 0 },
      'invalid_calendar_sync_minutes',
      'Invalid "calendarSyncMinutes" attribute value.',
    ],
    [
      { calendarSyncMinutes: 1441 },
      'invalid_calendar_sync_minutes',
      'Invalid "calendarSyncMinutes" attribute value.',
    ],
    [
      { holdMaxMinutes: 0 },
      'invalid_hold_max_minutes',
      'Invalid "holdMaxMinutes" attribute value.',
    ],
    [
      { holdMaxMinutes: 31 },
      'invalid_hold_max_minutes',
      'Invalid "holdMaxMinutes" attribute value.',
    ],
    [
      { holdMaxMinutes: 2.5 },
      'invalid_hold_max_minutes',
      'Invalid "holdMaxMinutes" attribute value.',
    ],
    [{ maxLiveHolds: 0 }, 'invalid_max_live_holds', 'Invalid "maxLiveHolds" attribute value.'],
    [{ maxLiveHolds: 10_001 }, 'invalid_max_live_holds', 'Invalid "maxLiveHolds" attribute value.'],
    [
      { pageHoldsPerAddress: -1 },
      'invalid_page_holds_per_address',
      'Invalid "pageHoldsPerAddress" attribute value.',
    ],
    [
      { pageHoldsPerAddress: 51 },
      'invalid_page_holds_per_address',
      'Invalid "pageHoldsPerAddress" attribute value.',
    ],
    [
      { pageHoldDayShare: 101 },
      'invalid_page_hold_day_share',
      'Invalid "pageHoldDayShare" attribute value.',
    ],
    [
      { pageHoldDayShare: 12.5 },
      'invalid_page_hold_day_share',
      'Invalid "pageHoldDayShare" attribute value.',
    ],
    [
      { clientChangeMinHours: -1 },
      'invalid_client_change_min_hours',
      'Invalid "clientChangeMinHours" attribute value.',
    ],
    ...[7, -1, 1.5, '1'].map((firstDayOfWeek): [Record<string, unknown>, string, string] => [
      { firstDayOfWeek },
      'invalid_first_day_of_week',
      'Invalid "firstDayOfWeek" attribute value.',
    ]),
    [
      { embedOrigins: 'https://shop.example' },
      'invalid_embed_origins',
      'Invalid "embedOrigins" attribute value.',
    ],
    ...[
      'http://shop.example',
      'https://shop.example/path',
      'https://*.example',
      "https://shop.example; script-src 'unsafe-inline'",
      'https://shop.example?x=1',
      'javascript:alert(1)',
    ].map((origin): [Record<string, unknown>, string, string] => [
      { embedOrigins: [origin] },
      'invalid_embed_origins',
      `Invalid origin "${origin}" in "embedOrigins": an origin is https://host or https://host:port (http for localhost), without a path.`,
    ]),
    ...['xx', 'EN', 'en-US', ''].map((language): [Record<string, unknown>, string, string] => [
      { language },
      'invalid_language',
      `Invalid language "${language}": the pages speak en, es, fr or de.`,
    ]),
    // It always has one: null is no language.
    [{ language: null }, 'invalid_language', 'Invalid "language" attribute value.'],
    [{ language: 2 }, 'invalid_language', 'Invalid "language" attribute value.'],
    ...[
      ['#ffcc00', '1.5'],
      ['#FFFFFF', '1.0'],
      ['#777777', '4.4'],
    ].map(([color, ratio]): [Record<string, unknown>, string, string] => [
      // The good language is not kept either: nothing is half-written.
      { language: 'es', accentColor: color },
      'invalid_accent_color',
      `Invalid "accentColor" ${color}: its contrast against white is ${ratio}:1, and text on the pages needs at least 4.5:1 (WCAG AA). Choose a darker colour.`,
    ]),
    ...['red', '#fff', '#12345g', '123456'].map(
      (color): [Record<string, unknown>, string, string] => [
        { accentColor: color, logoUrl: 'https://shop.example/logo.png' },
        'invalid_accent_color',
        `Invalid "accentColor" "${color}": a colour is #rrggbb (six hexadecimal digits).`,
      ],
    ),
    [{ accentColor: 0x1a73e8 }, 'invalid_accent_color', 'Invalid "accentColor" attribute value.'],
    ...[
      'https://a;script-src *',
      "https://a'b/logo.png",
      'javascript:alert(1)',
      'http://shop.example/logo.png',
      'https://u:p@shop.example/logo.png',
      'https://shop.example/logo.png\n',
      'https://',
      'logo.png',
    ].map((url): [Record<string, unknown>, string, string] => [
      { language: 'fr', logoUrl: url },
      'invalid_logo_url',
      `Invalid "logoUrl" "${url}": a logo is an https:// URL (without user name or password).`,
    ]),
    [
      { logoUrl: `https://shop.example/${'a'.repeat(3000)}` },
      'invalid_logo_url',
      'Attribute "logoUrl" is longer than 2048 characters.',
    ],
    [
      { logoUrl: ['https://shop.example'] },
      'invalid_logo_url',
      'Invalid "logoUrl" attribute value.',
    ],
  ])('refuses %p and changes nothing', async (body, error, message) => {
    const api = await newOwner();
    const before = (await api.get('/settings')).body as unknown;
    expect(await api.put('/settings', { minHoursInAdvance: 5, ...body })).toMatchObject(
      apiError(400, error, message),
    );
    expect((await api.get('/settings')).body).toEqual(before);
  });
});
