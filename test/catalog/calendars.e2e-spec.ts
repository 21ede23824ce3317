import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';

const OFFICE_WEEK = {
  monday: [{ start: '09:00', end: '17:00' }],
  tuesday: [{ start: '09:00', end: '17:00' }],
  wednesday: [{ start: '09:00', end: '17:00' }],
  thursday: [{ start: '09:00', end: '17:00' }],
  friday: [{ start: '09:00', end: '17:00' }],
};

describe('Calendars: /calendars (e2e)', () => {
  let app: NestFastifyApplication;
  /** An account in America/New_York (createAccount's zone). */
  let api: ApiClient;
  /** Another account, in another zone. */
  let other: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
    other = apiClient(app, await createAccount(app, { timezone: 'Europe/Berlin' }));
  });

  afterAll(() => app.close());

  async function createCalendar(body: Record<string, unknown> = {}): Promise<number> {
    const created = await api.post('/calendars', { name: 'Room A', ...body });
    expect(created.status).toBe(200);
    return (created.body as { id: number }).id;
  }

  it('creates a calendar with the defaults, reads it back and lists it in the reference shape', async () => {
    const created = await api.post('/calendars', { name: ' Dr. Ada ' });
    const details = {
      id: expect.any(Number),
      name: 'Dr. Ada',
      email: '',
      replyTo: '',
      description: '',
      location: '',
      timezone: 'America/New_York',
      image: '',
      thumbnail: '',
      hours: OFFICE_WEEK,
      overrides: {},
      maxPerDay: null,
      maxPerWeek: null,
    };
    expect(created).toMatchObject({ status: 200 });
    expect(created.body).toEqual(details);
    const { id } = created.body as { id: number };

    expect(await api.get(`/calendars/${id}`)).toEqual(
      expect.objectContaining({ status: 200, body: { ...details, id } }),
    );
    const list = await api.get('/calendars');
    expect(list.status).toBe(200);
    expect((list.body as { id: number }[]).find((calendar) => calendar.id === id)).toEqual({
      id,
      name: 'Dr. Ada',
      email: '',
      replyTo: '',
      description: '',
      location: '',
      timezone: 'America/New_York',
      image: '',
      thumbnail: '',
    });
  });

  it('creates a calendar with every attribute, normalizing hours and overrides', async () => {
    const created = await api.post('/calendars', {
      name: 'Room B',
      email: ' room-b@example.test ',
      replyTo: 'Front.Desk@example.test',
      description: 'The quiet room.',
      location: '2nd floor',
      timezone: 'Asia/Kolkata',
      image: 'https://cdn.example.test/room-b.png',
      thumbnail: 'http://cdn.example.test/room-b-small.png',
      hours: {
        saturday: [{ start: '18:00', end: '24:00' }],
        monday: [
          { start: '13:00', end: '17:00' },
          { start: '09:00', end: '13:00' },
        ],
        sunday: [],
      },
      overrides: {
        '2026-12-27': [{ start: '10:00', end: '14:00' }],
        '2026-12-24': [],
      },
      maxPerDay: 4,
      maxPerWeek: 20,
      id: 999999,
      accountId: 1,
    });
    expect(created).toMatchObject({ status: 200 });
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Room B',
      email: 'room-b@example.test',
      replyTo: 'Front.Desk@example.test',
      description: 'The quiet room.',
      location: '2nd floor',
      timezone: 'Asia/Kolkata',
      image: 'https://cdn.example.test/room-b.png',
      thumbnail: 'http://cdn.example.test/room-b-small.png',
      hours: {
        monday: [
          { start: '09:00', end: '13:00' },
          { start: '13:00', end: '17:00' },
        ],
        saturday: [{ start: '18:00', end: '24:00' }],
        sunday: [],
      },
      overrides: {
        '2026-12-24': [],
        '2026-12-27': [{ start: '10:00', end: '14:00' }],
      },
      maxPerDay: 4,
      maxPerWeek: 20,
    });
    const { id, hours, overrides } = created.body as {
      id: number;
      hours: object;
      overrides: object;
    };
    expect(id).not.toBe(999999);
    // Key order is part of the shape: days in week order, dates ascending, also once stored.
    const readBack = (await api.get(`/calendars/${id}`)).body as {
      hours: object;
      overrides: object;
    };
    expect(readBack).toEqual(created.body);
    expect(Object.keys(readBack.hours)).toEqual(Object.keys(hours));
    expect(Object.keys(readBack.overrides)).toEqual(Object.keys(overrides));
  });

  it('gives a calendar created without a zone the zone of its account', async () => {
    const created = await other.post('/calendars', { name: 'Berlin desk' });
    expect(created).toMatchObject({ status: 200, body: { timezone: 'Europe/Berlin' } });
  });

  it('lists only live calendars of the account, by id', async () => {
    const account = apiClient(app, await createAccount(app));
    const first = (await account.post('/calendars', { name: 'First' })).body as { id: number };
    const second = (await account.post('/calendars', { name: 'Second' })).body as { id: number };
    const third = (await account.post('/calendars', { name: 'Third' })).body as { id: number };
    await account.delete(`/calendars/${second.id}`);

    const list = await account.get('/calendars');
    expect(list.status).toBe(200);
    expect((list.body as { id: number; name: string }[]).map(({ id, name }) => [id, name])).toEqual(
      [
        [first.id, 'First'],
        [third.id, 'Third'],
      ],
    );
  });

  it('updates only what is given, replacing hours and overrides whole', async () => {
    const id = await createCalendar({
      email: 'a@example.test',
      location: 'Downstairs',
      overrides: { '2026-12-24': [] },
    });
    const updated = await api.put(`/calendars/${id}`, {
      name: 'Room A (renovated)',
      email: '',
      timezone: 'Europe/London',
      hours: { wednesday: [{ start: '08:30', end: '12:00' }] },
      overrides: { '2027-01-02': [{ start: '10:00', end: '12:00' }] },
      maxPerWeek: 12,
    });
    const expected = {
      id,
      name: 'Room A (renovated)',
      email: '',
      replyTo: '',
      description: '',
      location: 'Downstairs',
      timezone: 'Europe/London',
      image: '',
      thumbnail: '',
      hours: { wednesday: [{ start: '08:30', end: '12:00' }] },
      overrides: { '2027-01-02': [{ start: '10:00', end: '12:00' }] },
      maxPerDay: null,
      maxPerWeek: 12,
    };
    expect(updated).toMatchObject({ status: 200 });
    expect(updated.body).toEqual(expected);
    expect((await api.get(`/calendars/${id}`)).body).toEqual(expected);

    // An empty week and no overrides: a calendar closed until told otherwise.
    const closed = await api.put(`/calendars/${id}`, {
      hours: {},
      overrides: {},
      maxPerWeek: null,
    });
    expect(closed.body).toEqual({ ...expected, hours: {}, overrides: {}, maxPerWeek: null });
  });

  it('treats an empty PUT as no change', async () => {
    const id = await createCalendar({ name: 'Unchanged' });
    const before = (await api.get(`/calendars/${id}`)).body as object;
    expect(await api.put(`/calendars/${id}`)).toEqual(
      expect.objectContaining({ status: 200, body: before }),
    );
  });

  it('deletes a calendar softly: 204, then 404, gone from the list', async () => {
    const id = await createCalendar({ name: 'Closing' });
    expect(await api.delete(`/calendars/${id}`)).toMatchObject({ status: 204, body: undefined });

    expect(await api.get(`/calendars/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.put(`/calendars/${id}`, { name: 'Back' })).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.delete(`/calendars/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    const list = (await api.get('/calendars')).body as { id: number }[];
    expect(list.map((calendar) => calendar.id)).not.toContain(id);
  });

  it('gives 404 for a calendar that exists nowhere', async () => {
    const notFound = apiError(404, 'not_found', 'Not Found');
    expect(await api.get('/calendars/999999999')).toMatchObject(notFound);
    expect(await api.put('/calendars/999999999', { name: 'X' })).toMatchObject(notFound);
    expect(await api.delete('/calendars/999999999')).toMatchObject(notFound);
  });

  it("forbids another account's calendar and never lists it there", async () => {
    const id = await createCalendar({ name: 'Private room' });
    const before = (await api.get(`/calendars/${id}`)).body as object;
    const forbidden = apiError(403, 'forbidden', 'Forbidden');

    expect(await other.get(`/calendars/${id}`)).toMatchObject(forbidden);
    expect(await other.put(`/calendars/${id}`, { name: 'Taken over' })).toMatchObject(forbidden);
    expect(await other.delete(`/calendars/${id}`)).toMatchObject(forbidden);
    const list = (await other.get('/calendars')).body as { id: number }[];
    expect(list.map((calendar) => calendar.id)).not.toContain(id);

    expect((await api.get(`/calendars/${id}`)).body).toEqual(before);
  });

  const longEmail = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(60)}.com`;
  const longUrl = `https://cdn.example.test/${'x'.repeat(2025)}`;
  const dates = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10),
    );
  const hoursError = (problem: string) => `Invalid "hours" attribute value: ${problem}.`;
  const overridesError = (problem: string) => `Invalid "overrides" attribute value: ${problem}.`;

  it.each<[string, Record<string, unknown>, string, string]>([
    ['no name', {}, 'required_name', 'Attribute "name" is required.'],
    [
      'a daily limit of 0',
      { name: 'A', maxPerDay: 0 },
      'invalid_max_per_day',
      'Invalid "maxPerDay" attribute value.',
    ],
    [
      'a weekly limit that is no number',
      { name: 'A', maxPerWeek: 'ten' },
      'invalid_max_per_week',
      'Invalid "maxPerWeek" attribute value.',
    ],
    ['a blank name', { name: '   ' }, 'required_name', 'Attribute "name" is required.'],
    ['a null name', { name: null }, 'invalid_name', 'Invalid "name" attribute value.'],
    ['a number as name', { name: 42 }, 'invalid_name', 'Invalid "name" attribute value.'],
    [
      'a 256-character name',
      { name: 'x'.repeat(256) },
      'invalid_name',
      'Invalid "name" attribute value.',
    ],
    [
      'an e-mail that is no address',
      { name: 'A', email: 'not an address' },
      'invalid_email',
      'Invalid "email" attribute value.',
    ],
    [
      'a null e-mail',
      { name: 'A', email: null },
      'invalid_email',
      'Invalid "email" attribute value.',
    ],
    [
      'an e-mail over 254 characters',
      { name: 'A', email: longEmail },
      'invalid_email',
      'Invalid "email" attribute value.',
    ],
    [
      'a replyTo that is no address',
      { name: 'A', replyTo: 'desk@' },
      'invalid_reply_to',
      'Invalid "replyTo" attribute value.',
    ],
    [
      'a number as replyTo',
      { name: 'A', replyTo: 7 },
      'invalid_reply_to',
      'Invalid "replyTo" attribute value.',
    ],
    [
      'a 4001-character description',
      { name: 'A', description: 'x'.repeat(4001) },
      'invalid_description',
      'Invalid "description" attribute value.',
    ],
    [
      'a null description',
      { name: 'A', description: null },
      'invalid_description',
      'Invalid "description" attribute value.',
    ],
    [
      'a 256-character location',
      { name: 'A', location: 'x'.repeat(256) },
      'invalid_location',
      'Invalid "location" attribute value.',
    ],
    [
      'an array as location',
      { name: 'A', location: ['Hall'] },
      'invalid_location',
      'Invalid "location" attribute value.',
    ],
    [
      'a relative image URL',
      { name: 'A', image: 'room.png' },
      'invalid_image',
      'Invalid "image" attribute value.',
    ],
    [
      'an ftp image URL',
      { name: 'A', image: 'ftp://cdn.example.test/a.png' },
      'invalid_image',
      'Invalid "image" attribute value.',
    ],
    [
      'an image URL over 2048 characters',
      { name: 'A', image: longUrl },
      'invalid_image',
      'Invalid "image" attribute value.',
    ],
    [
      'a null image',
      { name: 'A', image: null },
      'invalid_image',
      'Invalid "image" attribute value.',
    ],
    [
      'a javascript: thumbnail',
      { name: 'A', thumbnail: 'javascript:alert(1)' },
      'invalid_thumbnail',
      'Invalid "thumbnail" attribute value.',
    ],
    [
      'an unknown zone',
      { name: 'A', timezone: 'Mars/Olympus' },
      'invalid_timezone',
      'Invalid timezone "Mars/Olympus".',
    ],
    ['an empty zone', { name: 'A', timezone: '' }, 'invalid_timezone', 'Invalid timezone "".'],
    ['a number as zone', { name: 'A', timezone: 42 }, 'invalid_timezone', 'Invalid timezone "42".'],
    ['a null zone', { name: 'A', timezone: null }, 'invalid_timezone', 'Invalid timezone "null".'],
    [
      'null hours',
      { name: 'A', hours: null },
      'invalid_hours',
      hoursError('expected an object of day names'),
    ],
    [
      'hours as an array',
      { name: 'A', hours: [{ start: '09:00', end: '17:00' }] },
      'invalid_hours',
      hoursError('expected an object of day names'),
    ],
    [
      'an unknown day',
      { name: 'A', hours: { funday: [] } },
      'invalid_hours',
      hoursError('unknown day "funday"'),
    ],
    [
      'a day that is not an array',
      { name: 'A', hours: { monday: { start: '09:00', end: '17:00' } } },
      'invalid_hours',
      hoursError('monday must be an array of intervals'),
    ],
    [
      'a one-digit hour',
      { name: 'A', hours: { monday: [{ start: '9:00', end: '17:00' }] } },
      'invalid_hours',
      hoursError('monday interval 1 start "9:00" is not a time (HH:MM, 00:00 to 23:59)'),
    ],
    [
      'an end past midnight',
      { name: 'A', hours: { monday: [{ start: '09:00', end: '24:01' }] } },
      'invalid_hours',
      hoursError('monday interval 1 end "24:01" is not a time (HH:MM, 00:00 to 24:00)'),
    ],
    [
      'an interval ending before it starts',
      { name: 'A', hours: { monday: [{ start: '13:00', end: '12:00' }] } },
      'invalid_hours',
      hoursError('monday 13:00-12:00 ends before it starts'),
    ],
    [
      'overlapping intervals',
      {
        name: 'A',
        hours: {
          tuesday: [
            { start: '09:00', end: '12:00' },
            { start: '11:30', end: '13:00' },
          ],
        },
      },
      'invalid_hours',
      hoursError('tuesday 09:00-12:00 overlaps 11:30-13:00'),
    ],
    [
      'overrides as an array',
      { name: 'A', overrides: [] },
      'invalid_overrides',
      overridesError('expected an object of dates (YYYY-MM-DD)'),
    ],
    [
      'an override of February 30',
      { name: 'A', overrides: { '2026-02-30': [] } },
      'invalid_overrides',
      overridesError('"2026-02-30" is not a date (YYYY-MM-DD)'),
    ],
    [
      'an override that is not an array',
      { name: 'A', overrides: { '2026-12-24': 'closed' } },
      'invalid_overrides',
      overridesError('2026-12-24 must be an array of intervals'),
    ],
    [
      '1001 overrides',
      { name: 'A', overrides: Object.fromEntries(dates(1001).map((date) => [date, []])) },
      'invalid_overrides',
      overridesError('more than 1000 dates'),
    ],
    // Attributes are checked before the rules of hours: the first failure is the name's.
    [
      'no name and bad hours',
      { hours: { funday: [] } },
      'required_name',
      'Attribute "name" is required.',
    ],
  ])('refuses to create with %s', async (_, body, error, message) => {
    const account = apiClient(app, await createAccount(app));
    expect(await account.post('/calendars', body)).toMatchObject(apiError(400, error, message));
    expect((await account.get('/calendars')).body).toEqual([]);
  });

  it.each<[Record<string, unknown>, string, string]>([
    [{ name: '' }, 'invalid_name', 'Attribute "name" cannot be cleared.'],
    [{ name: '  ' }, 'invalid_name', 'Attribute "name" cannot be cleared.'],
    [{ name: null }, 'invalid_name', 'Invalid "name" attribute value.'],
    [{ email: 'nope' }, 'invalid_email', 'Invalid "email" attribute value.'],
    [{ replyTo: null }, 'invalid_reply_to', 'Invalid "replyTo" attribute value.'],
    [{ description: 12 }, 'invalid_description', 'Invalid "description" attribute value.'],
    [{ location: null }, 'invalid_location', 'Invalid "location" attribute value.'],
    [{ image: 'not a url' }, 'invalid_image', 'Invalid "image" attribute value.'],
    [{ thumbnail: null }, 'invalid_thumbnail', 'Invalid "thumbnail" attribute value.'],
    [{ timezone: 'America/Nowhere' }, 'invalid_timezone', 'Invalid timezone "America/Nowhere".'],
    [{ timezone: null }, 'invalid_timezone', 'Invalid timezone "null".'],
    [
      { hours: null },
      'invalid_hours',
      'Invalid "hours" attribute value: expected an object of day names.',
    ],
    [
      { hours: { friday: [{ start: '12:00', end: '12:60' }] } },
      'invalid_hours',
      'Invalid "hours" attribute value: friday interval 1 end "12:60" is not a time (HH:MM, 00:00 to 24:00).',
    ],
    [
      { name: 'Renamed', hours: { monday: [{ start: '10:00', end: '09:00' }] } },
      'invalid_hours',
      'Invalid "hours" attribute value: monday 10:00-09:00 ends before it starts.',
    ],
    [
      { overrides: null },
      'invalid_overrides',
      'Invalid "overrides" attribute value: expected an object of dates (YYYY-MM-DD).',
    ],
    [
      { overrides: { '2026-12-24': [], '2026-13-01': [] } },
      'invalid_overrides',
      'Invalid "overrides" attribute value: "2026-13-01" is not a date (YYYY-MM-DD).',
    ],
  ])(
    'refuses to update with %j: %s, leaving the calendar unchanged',
    async (body, error, message) => {
      const id = await createCalendar({
        name: 'Steady',
        email: 'steady@example.test',
        overrides: { '2026-12-31': [] },
      });
      const before = (await api.get(`/calendars/${id}`)).body as object;
      expect(await api.put(`/calendars/${id}`, body)).toMatchObject(apiError(400, error, message));
      expect((await api.get(`/calendars/${id}`)).body).toEqual(before);
    },
  );
});
