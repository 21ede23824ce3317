import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

const WEIGHTS_MESSAGE =
  'The weights must be {"calendarID": 1 to 100, …} for calendars of the type, or null.';

/** A type's `assignment` and `weights` as its owner sets and reads them (docs/team-scheduling.md). */
describe('Appointment types: assignment and weights (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;
  let other: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
    other = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  const details = async (id: number): Promise<unknown> =>
    (await api.get(`/appointment-types/${id}`)).body;

  it('defaults to first without weights, and keeps what is set', async () => {
    const [a, b] = [await createCalendar(api), await createCalendar(api)];
    const type = await createAppointmentType(api, { calendarIDs: [a, b] });
    expect(await details(type)).toMatchObject({ assignment: 'first', weights: null });
    const res = await api.put(`/appointment-types/${type}`, {
      assignment: 'round-robin',
      weights: { [a]: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ assignment: 'round-robin', weights: { [a]: 2 } });
    // An update that leaves them out keeps them; null clears the weights.
    await api.put(`/appointment-types/${type}`, { name: 'Renamed' });
    expect(await details(type)).toMatchObject({ assignment: 'round-robin', weights: { [a]: 2 } });
    await api.put(`/appointment-types/${type}`, { assignment: 'balanced', weights: null });
    expect(await details(type)).toMatchObject({ assignment: 'balanced', weights: null });
    // The list view stays the v1 shape.
    const listed = (await api.get('/appointment-types')).body as Record<string, unknown>[];
    expect(listed.find((t) => t.id === type)).not.toHaveProperty('assignment');
  });

  it('creates a type with them', async () => {
    const [a, b] = [await createCalendar(api), await createCalendar(api)];
    const res = await api.post('/appointment-types', {
      name: 'Team intro',
      duration: 30,
      calendarIDs: [a, b],
      assignment: 'round-robin',
      weights: { [a]: 1, [b]: 100 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ assignment: 'round-robin', weights: { [a]: 1, [b]: 100 } });
  });

  it.each([
    [
      'an unknown assignment',
      { assignment: 'random' },
      'invalid_assignment',
      'Invalid "assignment" attribute value.',
    ],
    [
      'null assignment',
      { assignment: null },
      'invalid_assignment',
      'Invalid "assignment" attribute value.',
    ],
    ['weights not an object', { weights: [2] }, 'invalid_weights', WEIGHTS_MESSAGE],
    ['a weight of 0', { weights: { '1': 0 } }, 'invalid_weights', WEIGHTS_MESSAGE],
    ['a weight of 101', { weights: { '1': 101 } }, 'invalid_weights', WEIGHTS_MESSAGE],
    ['a fractional weight', { weights: { '1': 1.5 } }, 'invalid_weights', WEIGHTS_MESSAGE],
    ['a weight as text', { weights: { '1': '2' } }, 'invalid_weights', WEIGHTS_MESSAGE],
    ['a key that is not an id', { weights: { abc: 2 } }, 'invalid_weights', WEIGHTS_MESSAGE],
  ])('refuses %s, writing nothing', async (_, body, error, message) => {
    const calendar = await createCalendar(api);
    const type = await createAppointmentType(api, { calendarIDs: [calendar] });
    const before = await details(type);
    expect(await api.put(`/appointment-types/${type}`, { name: 'Changed', ...body })).toMatchObject(
      apiError(400, error, message),
    );
    expect(await details(type)).toEqual(before);
  });

  it("refuses weights for a calendar that is not the type's (another account's too), writing nothing", async () => {
    const [a, b] = [await createCalendar(api), await createCalendar(api)];
    const foreign = await createCalendar(other);
    const type = await createAppointmentType(api, { calendarIDs: [a] });
    for (const id of [b, foreign, 999_999_999])
      expect(
        await api.put(`/appointment-types/${type}`, {
          name: 'Changed',
          weights: { [a]: 2, [id]: 3 },
        }),
      ).toMatchObject(apiError(400, 'invalid_weights', WEIGHTS_MESSAGE));
    expect(await details(type)).toMatchObject({ name: 'Consultation', weights: null });
    // Given with the calendars that make them the type's, they are taken.
    const res = await api.put(`/appointment-types/${type}`, {
      calendarIDs: [a, b],
      weights: { [b]: 3 },
    });
    expect(res.body).toMatchObject({ calendarIDs: [a, b], weights: { [b]: 3 } });
    // A create with foreign weights creates nothing.
    const count = async () => ((await api.get('/appointment-types')).body as unknown[]).length;
    const n = await count();
    expect(
      await api.post('/appointment-types', {
        name: 'X',
        duration: 30,
        calendarIDs: [a],
        weights: { [b]: 2 },
      }),
    ).toMatchObject(apiError(400, 'invalid_weights', WEIGHTS_MESSAGE));
    expect(await count()).toBe(n);
  });

  it('drops the weight of a calendar unlinked from the type, and hides a deleted one', async () => {
    const [a, b, c] = [
      await createCalendar(api),
      await createCalendar(api),
      await createCalendar(api),
    ];
    const type = await createAppointmentType(api, {
      calendarIDs: [a, b, c],
      assignment: 'round-robin',
      weights: { [a]: 2, [b]: 3, [c]: 4 },
    });
    await api.put(`/appointment-types/${type}`, { calendarIDs: [a, c] });
    expect(await details(type)).toMatchObject({ weights: { [a]: 2, [c]: 4 } });
    const [row] = await app
      .get(DataSource)
      .query<{ w: unknown }[]>(
        'SELECT assignment_weights AS w FROM appointment_types WHERE id = ?',
        [type],
      );
    const stored: unknown = typeof row.w === 'string' ? JSON.parse(row.w) : row.w;
    expect(stored).toEqual({ [a]: 2, [c]: 4 });
    // Linked again, it weighs 1 until given a weight.
    await api.put(`/appointment-types/${type}`, { calendarIDs: [a, b, c] });
    expect(await details(type)).toMatchObject({ weights: { [a]: 2, [c]: 4 } });
    expect((await api.delete(`/calendars/${c}`)).status).toBe(204);
    expect(await details(type)).toMatchObject({ calendarIDs: [a, b], weights: { [a]: 2 } });
  });
});
