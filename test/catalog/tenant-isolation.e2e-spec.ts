import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';

/**
 * The contract's access rule on every catalog resource and verb: another account's id is 403
 * `forbidden` (and changes nothing), an id that exists nowhere is 404, lists show only the caller's.
 */
describe('Catalog: tenant isolation on every resource (e2e)', () => {
  let app: NestFastifyApplication;
  let owner: ApiClient;
  let stranger: ApiClient;
  const ids: Record<string, number> = {};
  const owned: Record<string, unknown> = {};

  /** Each resource: its collection, and a valid create and update body. */
  const resources: { path: string; create: () => unknown; update: unknown }[] = [
    { path: '/calendars', create: () => ({ name: 'Room' }), update: { name: 'Taken' } },
    { path: '/appointment-addons', create: () => ({ name: 'Extra' }), update: { name: 'Taken' } },
    { path: '/labels', create: () => ({ name: 'VIP' }), update: { name: 'Taken' } },
    { path: '/forms', create: () => ({ name: 'Intake' }), update: { name: 'Taken' } },
    {
      path: '/appointment-types',
      create: () => ({
        name: 'Yoga',
        duration: 60,
        type: 'class',
        classSize: 5,
        calendarIDs: [ids['/calendars']],
      }),
      update: { name: 'Taken' },
    },
    {
      path: '/products',
      create: () => ({
        name: 'Five classes',
        price: '50.00',
        type: 'appointments',
        appointmentTypeCounts: { [ids['/appointment-types']]: 5 },
      }),
      update: { name: 'Taken' },
    },
    {
      path: '/coupons',
      create: () => ({ name: 'Spring', discountType: 'percentage', discountAmount: 10 }),
      update: { name: 'Taken' },
    },
    {
      path: '/resources',
      create: () => ({ name: 'Room', quantity: 2 }),
      update: { name: 'Taken' },
    },
    {
      path: '/classes',
      create: () => ({
        appointmentTypeID: ids['/appointment-types'],
        calendarID: ids['/calendars'],
        datetime: '2030-05-05T10:00',
      }),
      update: undefined,
    },
  ];

  beforeAll(async () => {
    app = await startApi();
    owner = apiClient(app, await createAccount(app));
    stranger = apiClient(app, await createAccount(app));
    for (const resource of resources) {
      const res = await owner.post(resource.path, resource.create());
      if (res.status !== 200) throw new Error(`${resource.path}: ${JSON.stringify(res.body)}`);
      ids[resource.path] = (res.body as { id: number }).id;
      owned[resource.path] = res.body;
    }
  });

  afterAll(() => app.close());

  const forbidden = apiError(403, 'forbidden', 'Forbidden');
  const notFound = apiError(404, 'not_found', 'Not Found');

  describe.each(resources.map((r) => [r.path, r] as const))('%s', (path, resource) => {
    it("refuses another account's id on GET, PUT and DELETE with 403, changing nothing", async () => {
      const url = `${path}/${ids[path]}`;
      expect(await stranger.get(url)).toMatchObject(forbidden);
      if (resource.update !== undefined)
        expect(await stranger.put(url, resource.update)).toMatchObject(forbidden);
      expect(await stranger.delete(url)).toMatchObject(forbidden);
      expect((await owner.get(url)).body).toEqual(owned[path]);
    });

    it('answers 404 for an id that exists nowhere', async () => {
      const url = `${path}/999999999`;
      expect(await owner.get(url)).toMatchObject(notFound);
      if (resource.update !== undefined)
        expect(await owner.put(url, resource.update)).toMatchObject(notFound);
      expect(await owner.delete(url)).toMatchObject(notFound);
    });

    it("never lists another account's rows", async () => {
      const listed = (await stranger.get(path)).body as { id: number }[];
      expect(listed.map((row) => row.id)).not.toContain(ids[path]);
      const own = (await owner.get(path)).body as { id: number }[];
      expect(own.map((row) => row.id)).toContain(ids[path]);
    });
  });

  it("refuses another account's references inside a body with 403", async () => {
    expect(
      await stranger.post('/classes', {
        appointmentTypeID: ids['/appointment-types'],
        calendarID: ids['/calendars'],
        datetime: '2030-05-06T10:00',
      }),
    ).toMatchObject(forbidden);
    expect(
      await stranger.post('/appointment-types', {
        name: 'Copy',
        duration: 30,
        calendarIDs: [ids['/calendars']],
      }),
    ).toMatchObject(forbidden);
    expect(
      await stranger.post('/products', {
        name: 'Copy',
        price: 1,
        type: 'appointments',
        appointmentTypeCounts: { [ids['/appointment-types']]: 1 },
      }),
    ).toMatchObject(forbidden);
    expect(
      await stranger.post('/coupons', {
        name: 'Copy',
        discountType: 'price',
        discountAmount: 5,
        appointmentTypeIDs: [ids['/appointment-types']],
      }),
    ).toMatchObject(forbidden);
    expect(
      await stranger.post('/resources', {
        name: 'Copy',
        quantity: 1,
        appointmentTypeIDs: [ids['/appointment-types']],
      }),
    ).toMatchObject(forbidden);
    expect(
      await stranger.post('/appointment-types', {
        name: 'Copy',
        duration: 30,
        resourceIDs: [ids['/resources']],
      }),
    ).toMatchObject(forbidden);
  });
});
