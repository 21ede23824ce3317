import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/** Creates a resource through the API and returns its id; fails the test loudly when refused. */
async function createResource(
  api: ApiClient,
  attributes: Record<string, unknown> = {},
): Promise<number> {
  const res = await api.post('/resources', { name: 'Treatment room', quantity: 1, ...attributes });
  if (res.status !== 200)
    throw new Error(`POST /resources → ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body as { id: number }).id;
}

describe('Resources: /resources and the types that use them (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;
  let stranger: ApiClient;
  let accountId: number;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    const account = await createAccount(app);
    accountId = account.id;
    api = apiClient(app, account);
    stranger = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  const forbidden = apiError(403, 'forbidden', 'Forbidden');
  const notFound = apiError(404, 'not_found', 'Not Found');

  /**
   * `appointment_types.uses_resources` of the type (as views and feeds read it), checked to agree
   * with its `resource_links` (as availability reads them): null exactly when it needs none.
   */
  async function usesResources(typeId: number): Promise<boolean> {
    const [row] = await db.query<{ uses: number | string; links: unknown }[]>(
      `SELECT uses_resources AS uses, resource_links AS links FROM appointment_types
        WHERE account_id = ? AND id = ?`,
      [accountId, typeId],
    );
    expect(row.links === null).toBe(Number(row.uses) !== 1);
    return Number(row.uses) === 1;
  }

  const resourceIdsOf = async (typeId: number): Promise<number[]> =>
    ((await api.get(`/appointment-types/${typeId}`)).body as { resourceIDs: number[] }).resourceIDs;

  const listedResourceIdsOf = async (typeId: number): Promise<number[]> =>
    ((await api.get('/appointment-types')).body as { id: number; resourceIDs: number[] }[]).find(
      (t) => t.id === typeId,
    )!.resourceIDs;

  it('creates, lists, reads, updates and deletes a resource', async () => {
    const [typeA, typeB] = [await createAppointmentType(api), await createAppointmentType(api)];
    const created = await api.post('/resources', {
      name: ' Treatment room ',
      quantity: 2,
      appointmentTypeIDs: [typeB, typeA, typeB],
    });
    const id = (created.body as { id: number }).id;
    const resource = {
      id,
      name: 'Treatment room',
      quantity: 2,
      appointmentTypeIDs: [typeA, typeB].sort((a, b) => a - b),
    };
    expect(created.status).toBe(200);
    expect(created.body).toEqual(resource);

    const second = await createResource(api, { name: 'Laser', quantity: 1 });
    const laser = { id: second, name: 'Laser', quantity: 1, appointmentTypeIDs: [] };
    expect(await api.get('/resources')).toMatchObject({ status: 200, body: [resource, laser] });
    expect((await api.get('/resources')).body).toEqual([resource, laser]);
    expect(await api.get(`/resources/${id}`)).toMatchObject({ status: 200 });
    expect((await api.get(`/resources/${id}`)).body).toEqual(resource);

    // A partial update: what is left out stays, links given replace the old ones.
    const renamed = await api.put(`/resources/${id}`, { name: 'Room 1' });
    expect(renamed).toMatchObject({ status: 200, body: { ...resource, name: 'Room 1' } });
    const relinked = await api.put(`/resources/${id}`, {
      quantity: 1000,
      appointmentTypeIDs: [typeB],
    });
    expect(relinked.body).toEqual({
      id,
      name: 'Room 1',
      quantity: 1000,
      appointmentTypeIDs: [typeB],
    });
    expect((await api.put(`/resources/${id}`)).body).toEqual(relinked.body);
    expect((await api.put(`/resources/${id}`, { appointmentTypeIDs: [] })).body).toEqual({
      ...relinked.body,
      appointmentTypeIDs: [],
    });

    expect(await api.delete(`/resources/${id}`)).toMatchObject({ status: 204, body: undefined });
    expect((await api.get('/resources')).body).toEqual([laser]);
    expect(await api.get(`/resources/${id}`)).toMatchObject(notFound);
    expect(await api.put(`/resources/${id}`, { name: 'Back' })).toMatchObject(notFound);
    expect(await api.delete(`/resources/${id}`)).toMatchObject(notFound);
    expect(await api.delete(`/resources/${second}`)).toMatchObject({ status: 204 });
  });

  it('shows only the live types a resource is linked to', async () => {
    const [kept, retired] = [await createAppointmentType(api), await createAppointmentType(api)];
    const id = await createResource(api, { appointmentTypeIDs: [kept, retired] });
    expect((await api.delete(`/appointment-types/${retired}`)).status).toBe(204);
    expect((await api.get(`/resources/${id}`)).body).toMatchObject({ appointmentTypeIDs: [kept] });
  });

  describe('validation', () => {
    const invalid = (attribute: string) => `Invalid "${attribute}" attribute value.`;

    it.each([
      [{ quantity: 1 }, 'required_name', 'Attribute "name" is required.'],
      [{ name: '  ', quantity: 1 }, 'required_name', 'Attribute "name" is required.'],
      [{ name: 'x'.repeat(256), quantity: 1 }, 'invalid_name', invalid('name')],
      [{ name: 'Room' }, 'required_quantity', 'Attribute "quantity" is required.'],
      [{ name: 'Room', quantity: 0 }, 'invalid_quantity', invalid('quantity')],
      [{ name: 'Room', quantity: 1001 }, 'invalid_quantity', invalid('quantity')],
      [{ name: 'Room', quantity: 1.5 }, 'invalid_quantity', invalid('quantity')],
      [{ name: 'Room', quantity: '3' }, 'invalid_quantity', invalid('quantity')],
      [{ name: 'Room', quantity: null }, 'invalid_quantity', invalid('quantity')],
      [
        { name: 'Room', quantity: 1, appointmentTypeIDs: 'all' },
        'invalid_appointment_type_ids',
        invalid('appointmentTypeIDs'),
      ],
      [
        { name: 'Room', quantity: 1, appointmentTypeIDs: [0] },
        'invalid_appointment_type_ids',
        invalid('appointmentTypeIDs'),
      ],
      [
        { name: 'Room', quantity: 1, appointmentTypeIDs: [999999999] },
        'invalid_appointment_type',
        'The appointment type "999999999" does not exist.',
      ],
    ])('refuses to create %p, writing nothing', async (body, error, message) => {
      const before = (await api.get('/resources')).body as unknown[];
      expect(await api.post('/resources', body)).toMatchObject(apiError(400, error, message));
      expect((await api.get('/resources')).body).toEqual(before);
    });

    it('refuses a deleted appointment type like one that never existed', async () => {
      const type = await createAppointmentType(api);
      await api.delete(`/appointment-types/${type}`);
      expect(
        await api.post('/resources', { name: 'Room', quantity: 1, appointmentTypeIDs: [type] }),
      ).toMatchObject(
        apiError(400, 'invalid_appointment_type', `The appointment type "${type}" does not exist.`),
      );
    });

    it.each([
      [{ name: '' }, 'invalid_name', 'Attribute "name" cannot be cleared.'],
      [{ quantity: 0 }, 'invalid_quantity', invalid('quantity')],
      [{ quantity: 1001 }, 'invalid_quantity', invalid('quantity')],
      [{ quantity: 1.5 }, 'invalid_quantity', invalid('quantity')],
      [{ quantity: '3' }, 'invalid_quantity', invalid('quantity')],
      [{ quantity: null }, 'invalid_quantity', invalid('quantity')],
      [
        { name: 'Renamed', appointmentTypeIDs: [999999999] },
        'invalid_appointment_type',
        'The appointment type "999999999" does not exist.',
      ],
    ])('refuses to update with %p, changing nothing', async (body, error, message) => {
      const type = await createAppointmentType(api);
      const id = await createResource(api, {
        name: 'Mat',
        quantity: 4,
        appointmentTypeIDs: [type],
      });
      const before = (await api.get(`/resources/${id}`)).body as unknown;
      expect(await api.put(`/resources/${id}`, body)).toMatchObject(apiError(400, error, message));
      expect((await api.get(`/resources/${id}`)).body).toEqual(before);
      expect(await usesResources(type)).toBe(true);
    });
  });

  describe('another account', () => {
    it("refuses another account's resource on GET, PUT and DELETE with 403, changing nothing", async () => {
      const id = await createResource(api, { name: 'Sauna' });
      const before = (await api.get(`/resources/${id}`)).body as unknown;
      expect(await stranger.get(`/resources/${id}`)).toMatchObject(forbidden);
      expect(await stranger.put(`/resources/${id}`, { name: 'Taken' })).toMatchObject(forbidden);
      expect(await stranger.delete(`/resources/${id}`)).toMatchObject(forbidden);
      expect((await api.get(`/resources/${id}`)).body).toEqual(before);
      expect(
        ((await stranger.get('/resources')).body as { id: number }[]).map((r) => r.id),
      ).not.toContain(id);
    });

    it('answers 404 for an id that exists nowhere', async () => {
      expect(await api.get('/resources/999999999')).toMatchObject(notFound);
      expect(await api.put('/resources/999999999', { name: 'X' })).toMatchObject(notFound);
      expect(await api.delete('/resources/999999999')).toMatchObject(notFound);
    });

    it("refuses another account's type in appointmentTypeIDs, and its resource in resourceIDs, with 403", async () => {
      const theirType = await createAppointmentType(stranger);
      const theirResource = await createResource(stranger);
      const before = (await api.get('/resources')).body as unknown[];
      expect(
        await api.post('/resources', {
          name: 'Room',
          quantity: 1,
          appointmentTypeIDs: [theirType],
        }),
      ).toMatchObject(forbidden);
      expect((await api.get('/resources')).body).toEqual(before);
      expect(
        await api.post('/appointment-types', {
          name: 'X',
          duration: 30,
          resourceIDs: [theirResource],
        }),
      ).toMatchObject(forbidden);
    });
  });

  describe('deleting a resource that appointments still need', () => {
    /** A bookable service on a calendar of its own, linked to a new resource. */
    async function linkedService() {
      const calendar = await createCalendar(api, { timezone: 'America/New_York' });
      const type = await createAppointmentType(api, { calendarIDs: [calendar] });
      const resource = await createResource(api, { name: 'Chair', appointmentTypeIDs: [type] });
      return { calendar, type, resource };
    }

    async function book(calendar: number, type: number, datetime: string): Promise<number> {
      const res = await api.post('/appointments?admin=true', {
        firstName: 'Ada',
        lastName: 'Client',
        email: 'ada@example.test',
        appointmentTypeID: type,
        calendarID: calendar,
        datetime,
      });
      expect({ status: res.status, body: res.status === 200 ? 'booked' : res.body }).toEqual({
        status: 200,
        body: 'booked',
      });
      return (res.body as { id: number }).id;
    }

    it('refuses while appointments to come use it, counting them; deletes once they are canceled', async () => {
      const { calendar, type, resource } = await linkedService();
      await book(calendar, type, '2020-03-02T10:00'); // over: it does not count
      const first = await book(calendar, type, '2030-03-04T10:00');
      const second = await book(calendar, type, '2030-03-05T10:00');
      const before = (await api.get(`/resources/${resource}`)).body as unknown;

      expect(await api.delete(`/resources/${resource}`)).toMatchObject(
        apiError(400, 'resource_in_use', 'The resource is used by 2 appointment(s) still to come.'),
      );
      expect((await api.get(`/resources/${resource}`)).body).toEqual(before);
      expect(await resourceIdsOf(type)).toEqual([resource]);
      expect(await usesResources(type)).toBe(true);

      expect((await api.put(`/appointments/${first}/cancel?admin=true`, {})).status).toBe(200);
      expect(await api.delete(`/resources/${resource}`)).toMatchObject(
        apiError(400, 'resource_in_use', 'The resource is used by 1 appointment(s) still to come.'),
      );
      expect((await api.put(`/appointments/${second}/cancel?admin=true`, {})).status).toBe(200);
      expect(await api.delete(`/resources/${resource}`)).toMatchObject({ status: 204 });
      expect(await api.get(`/resources/${resource}`)).toMatchObject(notFound);
      expect(await resourceIdsOf(type)).toEqual([]);
      expect(await usesResources(type)).toBe(false);
    });

    it('counts the appointments of a type linked to it that was deleted since', async () => {
      const { calendar, type, resource } = await linkedService();
      await book(calendar, type, '2030-03-06T10:00');
      expect((await api.delete(`/appointment-types/${type}`)).status).toBe(204);
      expect(await api.delete(`/resources/${resource}`)).toMatchObject(
        apiError(400, 'resource_in_use', 'The resource is used by 1 appointment(s) still to come.'),
      );
    });
  });

  describe("an appointment type's resourceIDs", () => {
    it('are set by POST and PUT /appointment-types, shown by id and in the list, and set uses_resources', async () => {
      const [roomA, roomB] = [await createResource(api), await createResource(api)];
      const type = await createAppointmentType(api, { resourceIDs: [roomB, roomA, roomB] });
      const both = [roomA, roomB].sort((a, b) => a - b);
      expect(await resourceIdsOf(type)).toEqual(both);
      expect(await listedResourceIdsOf(type)).toEqual(both);
      expect(await usesResources(type)).toBe(true);
      expect((await api.get(`/resources/${roomA}`)).body).toMatchObject({
        appointmentTypeIDs: [type],
      });

      // Left out: kept.
      expect((await api.put(`/appointment-types/${type}`, { name: 'Renamed' })).body).toMatchObject(
        { resourceIDs: both },
      );
      expect(
        (await api.put(`/appointment-types/${type}`, { resourceIDs: [roomB] })).body,
      ).toMatchObject({ resourceIDs: [roomB] });
      expect(await usesResources(type)).toBe(true);
      expect((await api.get(`/resources/${roomA}`)).body).toMatchObject({ appointmentTypeIDs: [] });

      expect((await api.put(`/appointment-types/${type}`, { resourceIDs: [] })).body).toMatchObject(
        { resourceIDs: [] },
      );
      expect(await listedResourceIdsOf(type)).toEqual([]);
      expect(await usesResources(type)).toBe(false);
    });

    it("follow the resource's appointmentTypeIDs, and drop a deleted resource", async () => {
      const [type, other] = [await createAppointmentType(api), await createAppointmentType(api)];
      const [room, laser] = [await createResource(api), await createResource(api)];
      expect(await usesResources(type)).toBe(false);

      await api.put(`/resources/${room}`, { appointmentTypeIDs: [type, other] });
      expect(await resourceIdsOf(type)).toEqual([room]);
      expect(await usesResources(type)).toBe(true);
      expect(await usesResources(other)).toBe(true);

      await api.put(`/resources/${room}`, { appointmentTypeIDs: [other] });
      expect(await resourceIdsOf(type)).toEqual([]);
      expect(await usesResources(type)).toBe(false);
      expect(await usesResources(other)).toBe(true);

      // A type keeps the flag while one of its resources lives.
      await api.put(`/resources/${laser}`, { appointmentTypeIDs: [other] });
      expect(await listedResourceIdsOf(other)).toEqual([room, laser].sort((a, b) => a - b));
      expect((await api.delete(`/resources/${room}`)).status).toBe(204);
      expect(await resourceIdsOf(other)).toEqual([laser]);
      expect(await listedResourceIdsOf(other)).toEqual([laser]);
      expect(await usesResources(other)).toBe(true);
      expect((await api.delete(`/resources/${laser}`)).status).toBe(204);
      expect(await resourceIdsOf(other)).toEqual([]);
      expect(await usesResources(other)).toBe(false);
    });

    it.each([
      ['an unknown resource', () => 999999999],
      [
        'a deleted resource',
        async () => {
          const id = await createResource(api);
          await api.delete(`/resources/${id}`);
          return id;
        },
      ],
    ])('refuses %s with invalid_resource, changing nothing', async (_, resourceId) => {
      const id = await resourceId();
      const room = await createResource(api);
      const type = await createAppointmentType(api, { resourceIDs: [room] });
      const before = (await api.get(`/appointment-types/${type}`)).body as unknown;
      const refused = apiError(400, 'invalid_resource', `The resource "${id}" does not exist.`);
      expect(
        await api.post('/appointment-types', { name: 'X', duration: 30, resourceIDs: [id] }),
      ).toMatchObject(refused);
      expect(
        await api.put(`/appointment-types/${type}`, { name: 'Renamed', resourceIDs: [room, id] }),
      ).toMatchObject(refused);
      expect((await api.get(`/appointment-types/${type}`)).body).toEqual(before);
      expect(await usesResources(type)).toBe(true);
    });
  });
});
