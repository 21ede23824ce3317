import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import {
  createAddon,
  createAppointmentType,
  createCalendar,
  createForm,
} from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';
import { accessToken, bearer, ownerAccount, registerClient } from '../oauth/oauth-fixtures';

describe('Appointment types: /appointment-types (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let accountId: number;

  beforeAll(async () => {
    app = await startApi();
    const account = await createAccount(app);
    accountId = account.id;
    api = apiClient(app, account);
  });

  afterAll(() => app.close());

  it('creates a service type with its links and rules, and reads it back in the exact shapes', async () => {
    const [calendarA, calendarB] = [await createCalendar(api), await createCalendar(api)];
    const addon = await createAddon(api);
    const [formA, formB] = [await createForm(api), await createForm(api)];
    const res = await api.post('/appointment-types', {
      name: 'Haircut',
      description: 'Wash, cut and style',
      duration: 45,
      price: '40.00',
      category: 'Hair',
      color: '#E0A030',
      private: false,
      paddingBefore: 5,
      paddingAfter: 10,
      calendarIDs: [calendarB, calendarA],
      addonIDs: [addon],
      formIDs: [formB, formA],
      image: 'https://img.example.test/haircut.png',
      slotInterval: 15,
      minHoursInAdvance: 2,
      maxDaysInAdvance: 30,
      requireSmsOptIn: true,
      maxPerDay: 8,
      maxPerWeek: 30,
      unknownAttribute: 'ignored',
    });
    expect(res.status).toBe(200);
    const id = (res.body as { id: number }).id;
    const listed = {
      id,
      name: 'Haircut',
      active: true,
      description: 'Wash, cut and style',
      duration: 45,
      price: '40.00',
      category: 'Hair',
      color: '#E0A030',
      private: false,
      type: 'service',
      classSize: null,
      paddingBefore: 5,
      paddingAfter: 10,
      calendarIDs: [calendarA, calendarB].sort((a, b) => a - b),
      addonIDs: [addon],
      formIDs: [formB, formA],
      resourceIDs: [],
      image: 'https://img.example.test/haircut.png',
      schedulingUrl: `http://localhost:3000/schedule/${accountId}?appointmentType=${id}`,
    };
    const details = {
      ...listed,
      slotInterval: 15,
      minHoursInAdvance: 2,
      maxDaysInAdvance: 30,
      requireSmsOptIn: true,
      maxPerDay: 8,
      maxPerWeek: 30,
      assignment: 'first',
      weights: null,
      collective: false,
    };
    expect(res.body).toEqual(details);
    expect((await api.get(`/appointment-types/${id}`)).body).toEqual(details);
    const list = (await api.get('/appointment-types')).body as { id: number }[];
    expect(list.find((t) => t.id === id)).toEqual(listed);
  });

  it('fills in the defaults of a minimal type', async () => {
    const res = await api.post('/appointment-types', { name: 'Call', duration: 20 });
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Call',
      active: true,
      description: '',
      duration: 20,
      price: '0.00',
      category: '',
      color: '',
      private: false,
      type: 'service',
      classSize: null,
      paddingBefore: 0,
      paddingAfter: 0,
      calendarIDs: [],
      addonIDs: [],
      formIDs: [],
      resourceIDs: [],
      image: '',
      schedulingUrl: expect.stringMatching(/\/schedule\/\d+\?appointmentType=\d+$/),
      slotInterval: null,
      minHoursInAdvance: null,
      maxDaysInAdvance: null,
      requireSmsOptIn: false,
      maxPerDay: null,
      maxPerWeek: null,
      assignment: 'first',
      weights: null,
      collective: false,
    });
  });

  it('creates a class type with its class size', async () => {
    const res = await api.post('/appointment-types', {
      name: 'Yoga',
      duration: 60,
      type: 'class',
      classSize: 12,
    });
    expect(res.body).toMatchObject({ type: 'class', classSize: 12, duration: 60 });
  });

  it('updates what is given, replaces links, and clears a rule with null', async () => {
    const calendar = await createCalendar(api);
    const other = await createCalendar(api);
    const id = await createAppointmentType(api, {
      calendarIDs: [calendar],
      slotInterval: 10,
      price: 25,
    });
    const res = await api.put(`/appointment-types/${id}`, {
      calendarIDs: [other],
      slotInterval: null,
      active: false,
    });
    expect(res.body).toMatchObject({
      id,
      name: 'Consultation',
      price: '25.00',
      active: false,
      calendarIDs: [other],
      slotInterval: null,
    });
    const unchanged = await api.put(`/appointment-types/${id}`, {});
    expect(unchanged.body).toEqual(res.body);
  });

  it('serializes concurrent updates that replace the links', async () => {
    const calendars = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createCalendar(api)));
    const id = await createAppointmentType(api);
    const answers = await Promise.all(
      calendars.map((calendar) => api.put(`/appointment-types/${id}`, { calendarIDs: [calendar] })),
    );
    expect(answers.map((a) => a.status)).toEqual(calendars.map(() => 200));
    const { calendarIDs } = (await api.get(`/appointment-types/${id}`)).body as {
      calendarIDs: number[];
    };
    expect(calendarIDs).toHaveLength(1);
    expect(calendars).toContain(calendarIDs[0]);
  });

  it('turns a service into a class and back', async () => {
    const id = await createAppointmentType(api);
    expect(await api.put(`/appointment-types/${id}`, { type: 'class' })).toMatchObject(
      apiError(400, 'required_class_size', 'Attribute "classSize" is required for class types.'),
    );
    expect(
      (await api.put(`/appointment-types/${id}`, { type: 'class', classSize: 8 })).body,
    ).toMatchObject({ type: 'class', classSize: 8 });
    expect((await api.put(`/appointment-types/${id}`, { type: 'service' })).body).toMatchObject({
      type: 'service',
      classSize: null,
    });
  });

  it('soft-deletes: gone from the list, listed with includeDeleted, readable by id', async () => {
    const id = await createAppointmentType(api, { name: 'Retired' });
    expect((await api.delete(`/appointment-types/${id}`)).status).toBe(204);
    const ids = async (query: string) =>
      ((await api.get(`/appointment-types${query}`)).body as { id: number }[]).map((t) => t.id);
    expect(await ids('')).not.toContain(id);
    expect(await ids('?includeDeleted=false')).not.toContain(id);
    expect(await ids('?includeDeleted=true')).toContain(id);
    expect((await api.get(`/appointment-types/${id}`)).body).toMatchObject({ id, name: 'Retired' });
    expect(await api.put(`/appointment-types/${id}`, { name: 'Back' })).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.delete(`/appointment-types/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.get('/appointment-types?includeDeleted=maybe')).toMatchObject(
      apiError(400, 'invalid_include_deleted', 'Invalid "includeDeleted" attribute value.'),
    );
  });

  it("answers a partner app (OAuth Bearer) by id in the list's shape, then the rules", async () => {
    const owner = await ownerAccount(app);
    const basic = apiClient(app, owner);
    const partner = apiClient(app, {
      ...owner,
      authorization: bearer(await accessToken(app, await registerClient(app), owner)),
    });
    const calendar = await createCalendar(basic);
    const kept = await createAppointmentType(basic, {
      name: 'Yoga',
      type: 'class',
      classSize: 8,
      price: '12.50',
      private: true,
      calendarIDs: [calendar],
    });
    const deleted = await createAppointmentType(basic, { name: 'Retired' });
    expect((await basic.delete(`/appointment-types/${deleted}`)).status).toBe(204);
    const listed = (await partner.get('/appointment-types?includeDeleted=true')).body as {
      id: number;
    }[];
    const rules = [
      'slotInterval',
      'minHoursInAdvance',
      'maxDaysInAdvance',
      'requireSmsOptIn',
      'maxPerDay',
      'maxPerWeek',
      'assignment',
      'weights',
      'collective',
    ];
    for (const id of [kept, deleted]) {
      const read = await partner.get(`/appointment-types/${id}`);
      expect(read.status).toBe(200);
      const item = listed.find((t) => t.id === id)!;
      expect(Object.keys(read.body)).toEqual([...Object.keys(item), ...rules]);
      expect(read.body).toMatchObject(item);
    }
    // The reference shows a deleted type as inactive, in the list and by id.
    expect(listed.find((t) => t.id === deleted)).toMatchObject({ active: false });
    expect((await partner.get(`/appointment-types/${kept}`)).body).toMatchObject({
      active: true,
      type: 'class',
      classSize: 8,
      private: true,
      price: '12.50',
    });
    expect(
      await partner.get(`/appointment-types/${(await createAppointmentType(api)).toString()}`),
    ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
    expect(await partner.get('/appointment-types/2147483000')).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
  });

  it('drops a deleted calendar, addon or form from the types that listed it', async () => {
    const [calendar, addon, form] = [
      await createCalendar(api),
      await createAddon(api),
      await createForm(api),
    ];
    const id = await createAppointmentType(api, {
      calendarIDs: [calendar],
      addonIDs: [addon],
      formIDs: [form],
    });
    await api.delete(`/calendars/${calendar}`);
    await api.delete(`/appointment-addons/${addon}`);
    await api.delete(`/forms/${form}`);
    expect((await api.get(`/appointment-types/${id}`)).body).toMatchObject({
      calendarIDs: [],
      addonIDs: [],
      formIDs: [],
    });
  });

  describe('validation', () => {
    it.each([
      [{ duration: 30 }, 'required_name', 'Attribute "name" is required.'],
      [{ name: 'X' }, 'required_duration', 'Attribute "duration" is required.'],
      [{ name: '', duration: 30 }, 'invalid_name', 'Attribute "name" cannot be cleared.'],
      [{ name: 'X', duration: 0 }, 'invalid_duration', 'Invalid "duration" attribute value.'],
      [{ name: 'X', duration: 1441 }, 'invalid_duration', 'Invalid "duration" attribute value.'],
      [{ name: 'X', duration: '30' }, 'invalid_duration', 'Invalid "duration" attribute value.'],
      [{ name: 'X', duration: 30, price: -5 }, 'invalid_price', 'Invalid "price" attribute value.'],
      [
        { name: 'X', duration: 30, color: 'red!' },
        'invalid_color',
        'Invalid "color" attribute value.',
      ],
      [
        { name: 'X', duration: 30, type: 'group' },
        'invalid_type',
        'Invalid "type" attribute value.',
      ],
      [
        { name: 'X', duration: 30, type: 'class' },
        'required_class_size',
        'Attribute "classSize" is required for class types.',
      ],
      [
        { name: 'X', duration: 30, type: 'class', classSize: 0 },
        'invalid_class_size',
        'Invalid "classSize" attribute value.',
      ],
      [
        { name: 'X', duration: 30, classSize: 5 },
        'invalid_class_size',
        'Attribute "classSize" applies to class types only.',
      ],
      [
        { name: 'X', duration: 30, paddingBefore: -1 },
        'invalid_padding_before',
        'Invalid "paddingBefore" attribute value.',
      ],
      [
        { name: 'X', duration: 30, paddingAfter: 2000 },
        'invalid_padding_after',
        'Invalid "paddingAfter" attribute value.',
      ],
      [
        { name: 'X', duration: 30, calendarIDs: 'all' },
        'invalid_calendar_ids',
        'Invalid "calendarIDs" attribute value.',
      ],
      [
        { name: 'X', duration: 30, calendarIDs: [999999999] },
        'invalid_calendar',
        'The calendar "999999999" does not exist.',
      ],
      [
        { name: 'X', duration: 30, addonIDs: [999999999] },
        'invalid_addon',
        'The addon "999999999" does not exist.',
      ],
      [
        { name: 'X', duration: 30, formIDs: [999999999] },
        'invalid_form',
        'The form "999999999" does not exist.',
      ],
      [
        { name: 'X', duration: 30, resourceIDs: [999999999] },
        'invalid_resource',
        'The resource "999999999" does not exist.',
      ],
      [
        { name: 'X', duration: 30, resourceIDs: 'all' },
        'invalid_resource_ids',
        'Invalid "resourceIDs" attribute value.',
      ],
      [
        { name: 'X', duration: 30, image: 'ftp://x.test/a.png' },
        'invalid_image',
        'Invalid "image" attribute value.',
      ],
      [
        { name: 'X', duration: 30, slotInterval: 0 },
        'invalid_slot_interval',
        'Invalid "slotInterval" attribute value.',
      ],
      [
        { name: 'X', duration: 30, minHoursInAdvance: -1 },
        'invalid_min_hours_in_advance',
        'Invalid "minHoursInAdvance" attribute value.',
      ],
      [
        { name: 'X', duration: 30, maxDaysInAdvance: 0 },
        'invalid_max_days_in_advance',
        'Invalid "maxDaysInAdvance" attribute value.',
      ],
      [
        { name: 'X', duration: 30, maxPerDay: 0 },
        'invalid_max_per_day',
        'Invalid "maxPerDay" attribute value.',
      ],
      [
        { name: 'X', duration: 30, maxPerWeek: 10_001 },
        'invalid_max_per_week',
        'Invalid "maxPerWeek" attribute value.',
      ],
      [
        { name: 'X', duration: 30, maxPerWeek: '5' },
        'invalid_max_per_week',
        'Invalid "maxPerWeek" attribute value.',
      ],
      [
        { name: 'X', duration: 30, requireSmsOptIn: 1 },
        'invalid_require_sms_opt_in',
        'Invalid "requireSmsOptIn" attribute value.',
      ],
      [
        { name: 'X', duration: 30, private: 'no' },
        'invalid_private',
        'Invalid "private" attribute value.',
      ],
      [
        { name: 'X', duration: 30, active: null },
        'invalid_active',
        'Invalid "active" attribute value.',
      ],
    ])('refuses to create %p, writing nothing', async (body, error, message) => {
      const before = (await api.get('/appointment-types?includeDeleted=true')).body as unknown[];
      expect(await api.post('/appointment-types', body)).toMatchObject(
        apiError(400, error, message),
      );
      expect((await api.get('/appointment-types?includeDeleted=true')).body).toEqual(before);
    });

    it('refuses an update with a bad link and keeps the old links and attributes', async () => {
      const calendar = await createCalendar(api);
      const id = await createAppointmentType(api, { calendarIDs: [calendar] });
      const before = (await api.get(`/appointment-types/${id}`)).body as unknown;
      expect(
        await api.put(`/appointment-types/${id}`, {
          name: 'Renamed',
          calendarIDs: [calendar, 999999999],
        }),
      ).toMatchObject(
        apiError(400, 'invalid_calendar', 'The calendar "999999999" does not exist.'),
      );
      expect((await api.get(`/appointment-types/${id}`)).body).toEqual(before);
    });

    it('refuses a calendar of another account with 403', async () => {
      const stranger = apiClient(app, await createAccount(app));
      const theirs = await createCalendar(stranger);
      expect(
        await api.post('/appointment-types', { name: 'X', duration: 30, calendarIDs: [theirs] }),
      ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
    });

    it('refuses to make a type with sessions a service', async () => {
      const calendar = await createCalendar(api);
      const id = await createAppointmentType(api, {
        type: 'class',
        classSize: 4,
        calendarIDs: [calendar],
      });
      const session = await api.post('/classes', {
        appointmentTypeID: id,
        calendarID: calendar,
        datetime: '2030-01-07T10:00',
      });
      expect(session.status).toBe(200);
      expect(await api.put(`/appointment-types/${id}`, { type: 'service' })).toMatchObject(
        apiError(
          400,
          'invalid_type',
          `The appointment type "${id}" has class sessions: delete them before making it a service.`,
        ),
      );
    });
  });
});
