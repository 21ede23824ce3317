import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, type ApiResponse, apiClient } from '../support/api-client';
import { createAddon, createForm } from '../support/catalog-fixtures';
import {
  type TestEnterprise,
  createEnterprise,
  createMember,
  memberClient,
} from '../support/enterprise-fixtures';
import { outboxEvents } from '../support/outbox-events';
import { type TestAccount, routeCatalogOf, startApi } from '../support/test-app';
import { type Shop, book, openShop } from '../webhooks/shops';

/** An id no row has: routes whose family has no fixture below answer 404 both ways. */
const NO_SUCH_ID = 999_999_999;
const VERBS = ['GET', 'POST', 'PUT', 'DELETE'] as const;
type Verb = (typeof VERBS)[number];

/**
 * Issue 26, done when: every v1 route family called through `/users/{userId}/` gives the same status
 * and body as through the member's own key. The table is the router's own list of `/api/v1` routes
 * (RouteCatalog, as Fastify registered them), so a route added later is in it without a change here.
 * Calls that would write are made so that they write nothing (an empty body, an id that does not
 * exist), so both calls meet the same state; reads use the member's real rows.
 */
describe('Enterprise API: every v1 route through /users/{userId}/ answers as the member key does (e2e)', () => {
  let app: NestFastifyApplication;
  let enterprise: TestEnterprise;
  let member: TestAccount;
  let own: ApiClient;
  let through: ApiClient;
  let shop: Shop;
  /** Real ids of the member, by the first segment of a route. */
  const ids = new Map<string, number>();

  beforeAll(async () => {
    app = await startApi();
    enterprise = await createEnterprise(app);
    member = await createMember(app, enterprise);
    own = apiClient(app, member);
    through = memberClient(app, enterprise, member.id);
    shop = await openShop(app, member);
    const booked = await book(shop);
    ids.set('appointments', booked.id);
    ids.set('calendars', shop.calendar);
    ids.set('appointment-types', shop.type);
    ids.set('appointment-addons', await createAddon(own));
    ids.set('forms', await createForm(own));
    // An event this spec never causes (no order is completed): no message is ever written for it,
    // so no worker of another spec sharing the database tries to deliver to this dead target.
    const webhook = await own.post('/webhooks', {
      event: 'order.completed',
      target: 'http://127.0.0.1:9/hook',
    });
    ids.set('webhooks', (webhook.body as { id: number }).id);
  });
  afterAll(() => app.close());

  /** `/calendars/:id(^\d+$)` → `/calendars/<id>`. */
  function concrete(template: string, verb: Verb): string {
    const family = template.split('/')[1];
    const id = verb === 'GET' ? (ids.get(family) ?? NO_SUCH_ID) : NO_SUCH_ID;
    return template.replace(/:[A-Za-z]+(\([^)]*\))?/g, String(id));
  }

  function call(client: ApiClient, verb: Verb, path: string): Promise<ApiResponse> {
    switch (verb) {
      case 'GET':
        return client.get(path);
      case 'DELETE':
        return client.delete(path);
      case 'POST':
        return client.post(path, {});
      case 'PUT':
        return client.put(path, {});
    }
  }

  function table(): [Verb, string][] {
    return routeCatalogOf(app)
      .list()
      .filter(({ template }) => !/^\/(docs|openapi)/.test(template))
      .flatMap(({ template, methods }) =>
        VERBS.filter((verb) => methods.includes(verb)).map((verb): [Verb, string] => [
          verb,
          template,
        ]),
      )
      .sort(([v1, t1], [v2, t2]) => t1.localeCompare(t2) || v1.localeCompare(v2));
  }

  it('covers the router: every v1 family, every verb', () => {
    const routes = table();
    expect(routes.length).toBeGreaterThanOrEqual(70);
    const families = new Set(routes.map(([, template]) => template.split('/')[1]));
    expect([...families].sort()).toEqual(
      expect.arrayContaining([
        'appointment-addons',
        'appointment-types',
        'appointments',
        'availability',
        'blocks',
        'calendars',
        'certificates',
        'classes',
        'clients',
        'coupons',
        'forms',
        'integrations',
        'labels',
        'me',
        'meta',
        'orders',
        'products',
        'settings',
        'webhooks',
      ]),
    );
  });

  it('answers every route alike, status and body', async () => {
    const differences: unknown[] = [];
    const statuses = new Set<number>();
    for (const [verb, template] of table()) {
      const path = concrete(template, verb);
      const mine = await call(own, verb, path);
      const theirs = await call(through, verb, path);
      statuses.add(mine.status);
      if (
        mine.status !== theirs.status ||
        JSON.stringify(mine.body) !== JSON.stringify(theirs.body)
      ) {
        differences.push({ verb, path, own: mine, through: theirs });
      }
    }
    expect(differences).toEqual([]);
    // The table met reads that succeed and refusals of several kinds, not one answer throughout.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 400, 404]));
  });

  it.each([
    ['/calendars', { name: 'Room B', timezone: 'Europe/Paris' }],
    ['/appointment-addons', { name: 'Towel', duration: 5 }],
    ['/forms', { name: 'Consent' }],
  ])('creates alike through both: POST %s', async (path, body) => {
    const mine = await own.post(path, body);
    const theirs = await through.post(path, body);
    const { id: ownId, ...ownRest } = mine.body as { id?: number };
    const { id: theirId, ...theirRest } = theirs.body as { id?: number };
    expect(mine.status).toBe(200);
    expect({ status: theirs.status, body: theirRest }).toEqual({ status: 200, body: ownRest });
    if (ownId !== undefined) expect(theirId).toBeGreaterThan(ownId);
  });

  it('writes as the member: a booking, its events and admin=true', async () => {
    const db = app.get(DataSource);
    const outside = '2030-06-04T03:00:00-04:00'; // a Tuesday night: the calendar is closed
    const body = {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      appointmentTypeID: shop.type,
      calendarID: shop.calendar,
      datetime: outside,
    };
    const refusedOwn = await own.post('/appointments', body);
    const refusedThrough = await through.post('/appointments', body);
    expect(refusedThrough).toMatchObject({ status: 400, body: refusedOwn.body });
    expect(refusedOwn.status).toBe(400);

    const booked = await through.post('/appointments?admin=true', body);
    expect(booked.status).toBe(200);
    const appointment = booked.body as { id: number };
    expect((await own.get(`/appointments/${appointment.id}`)).body).toEqual(booked.body);
    const rows: { account_id: number }[] = await db.query(
      'SELECT account_id FROM appointments WHERE id = ?',
      [appointment.id],
    );
    expect(rows).toEqual([{ account_id: member.id }]);
    expect(
      await outboxEvents(db, 'appointment.scheduled', 'appointmentId', appointment.id),
    ).toHaveLength(1);
    const [event]: { account_id: number }[] = await db.query(
      "SELECT account_id FROM outbox WHERE type = 'appointment.scheduled' AND JSON_EXTRACT(payload, '$.appointmentId') = ?",
      [appointment.id],
    );
    expect(event).toEqual({ account_id: member.id });
  });
});
