import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { type TestAccount, createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';

const EVENTS_MESSAGE =
  'Attribute "event" must be one of appointment.scheduled, appointment.rescheduled, ' +
  'appointment.canceled, appointment.changed, order.completed.';

const UNSET = { target: null, status: 'active' };
const ALL_UNSET = {
  scheduled: UNSET,
  rescheduled: UNSET,
  canceled: UNSET,
  changed: UNSET,
  orderCompleted: UNSET,
};

const forbidden = apiError(403, 'forbidden', 'Forbidden');
const notFound = apiError(404, 'not_found', 'Not Found');

interface SubscriptionRow {
  id: number;
  account_id: number;
  source: string;
  action: string;
  static_action: string | null;
  target: string;
  status: string;
  failing_since: Date | null;
  disabled_at: Date | null;
}

describe('Webhooks: subscriptions (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let owner: TestAccount;
  let api: ApiClient;
  let stranger: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    owner = await createAccount(app);
    api = apiClient(app, owner);
    stranger = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  /** A fresh account of its own (tests that count or list the whole account). */
  const freshClient = async (): Promise<{ account: TestAccount; client: ApiClient }> => {
    const account = await createAccount(app);
    return { account, client: apiClient(app, account) };
  };

  const rowsOf = (accountId: number): Promise<SubscriptionRow[]> =>
    db.query('SELECT * FROM webhook_subscriptions WHERE account_id = ? ORDER BY id', [accountId]);

  const rowOf = async (id: number): Promise<SubscriptionRow> =>
    (
      await db.query<SubscriptionRow[]>('SELECT * FROM webhook_subscriptions WHERE id = ?', [id])
    )[0];

  /** What the delivery side does after failures continuing for the disable window. */
  const disable = (id: number) =>
    db.query(
      `UPDATE webhook_subscriptions
          SET status = 'disabled', failing_since = ?, disabled_at = ?
        WHERE id = ?`,
      [new Date('2030-01-01T00:00:00.000Z'), new Date('2030-01-06T00:00:00.000Z'), id],
    );

  const create = async (client: ApiClient, event: string, target: string): Promise<number> => {
    const res = await client.post('/webhooks', { event, target });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return (res.body as { id: number }).id;
  };

  describe('/webhooks', () => {
    it('creates a subscription of every event and lists them in id order', async () => {
      const { account, client } = await freshClient();
      expect(await client.get('/webhooks')).toMatchObject({ status: 200, body: [] });

      const events = [
        ['appointment.scheduled', 'scheduled'],
        ['appointment.rescheduled', 'rescheduled'],
        ['appointment.canceled', 'canceled'],
        ['appointment.changed', 'changed'],
        ['order.completed', 'order.completed'],
      ];
      const created = [];
      for (const [event] of events) {
        const target = `https://hooks.example.com/${event}`;
        const res = await client.post('/webhooks', { event, target: `  ${target} ` });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ id: expect.any(Number), event, target, status: 'active' });
        created.push(res.body);
      }
      expect(await client.get('/webhooks')).toMatchObject({ status: 200, body: created });
      expect((await client.get('/webhooks')).body).toEqual(created);
      expect((await client.get('/webhooks.json')).body).toEqual(created);

      // Stored with the contract's action values, as api subscriptions.
      const rows = await rowsOf(account.id);
      expect(rows.map((row) => [row.source, row.action, row.static_action, row.status])).toEqual(
        events.map(([, action]) => ['api', action, null, 'active']),
      );
      expect(rows.every((row) => row.failing_since === null && row.disabled_at === null)).toBe(
        true,
      );
    });

    it('accepts private addresses and any port under the test configuration', async () => {
      const res = await api.post('/webhooks', {
        event: 'appointment.changed',
        target: 'http://127.0.0.1:39123/hook',
      });
      expect(res).toMatchObject({
        status: 200,
        body: {
          id: expect.any(Number),
          event: 'appointment.changed',
          target: 'http://127.0.0.1:39123/hook',
          status: 'active',
        },
      });
    });

    it.each([
      [{}, 'required_event', 'Attribute "event" is required.'],
      [
        { event: null, target: 'https://x.example/' },
        'required_event',
        'Attribute "event" is required.',
      ],
      [
        { event: 'appointment.moved', target: 'https://x.example/' },
        'invalid_event',
        EVENTS_MESSAGE,
      ],
      [{ event: 'scheduled', target: 'https://x.example/' }, 'invalid_event', EVENTS_MESSAGE],
      [{ event: 42, target: 'https://x.example/' }, 'invalid_event', EVENTS_MESSAGE],
      [{ event: 'order.completed' }, 'required_target', 'Attribute "target" is required.'],
      [
        { event: 'order.completed', target: '   ' },
        'required_target',
        'Attribute "target" is required.',
      ],
      [
        { event: 'order.completed', target: 42 },
        'invalid_target',
        'Invalid "target" attribute value.',
      ],
      [
        { event: 'order.completed', target: null },
        'invalid_target',
        'Invalid "target" attribute value.',
      ],
      [
        { event: 'order.completed', target: 'hooks.example.com/x' },
        'invalid_target',
        'Attribute "target" must be an absolute URL.',
      ],
      [
        { event: 'order.completed', target: 'ftp://hooks.example.com/x' },
        'invalid_target',
        'Attribute "target" must be an http or https URL.',
      ],
      [
        { event: 'order.completed', target: 'https://me:secret@hooks.example.com/' },
        'invalid_target',
        'Attribute "target" must not contain a username or password.',
      ],
      [
        { event: 'order.completed', target: 'https://hooks.example.com/a b' },
        'invalid_target',
        'Attribute "target" must not contain spaces or control characters.',
      ],
      [
        { event: 'order.completed', target: `https://hooks.example.com/${'a'.repeat(2030)}` },
        'invalid_target',
        'Attribute "target" must be at most 2048 characters long.',
      ],
    ])('refuses to create %j: %s', async (body, error, message) => {
      const { account, client } = await freshClient();
      expect(await client.post('/webhooks', body)).toMatchObject(apiError(400, error, message));
      expect(await rowsOf(account.id)).toEqual([]);
    });

    it('refuses a body that is not a JSON object', async () => {
      expect(await api.post('/webhooks', 'https://x.example/')).toMatchObject(
        apiError(400, 'bad_request', 'Expected a JSON object.'),
      );
    });

    it('asks for authentication', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/v1/webhooks' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        status_code: 401,
        error: 'unauthorized',
        message: 'Unauthorized',
      });
    });

    it('re-enables a disabled subscription with status "active", clearing its failures', async () => {
      const id = await create(api, 'appointment.canceled', 'https://hooks.example.com/canceled');
      await disable(id);
      const disabled = {
        id,
        event: 'appointment.canceled',
        target: 'https://hooks.example.com/canceled',
        status: 'disabled',
      };
      expect((await api.get('/webhooks')).body).toContainEqual(disabled);

      expect(await api.put(`/webhooks/${id}`, { status: 'active' })).toMatchObject({
        status: 200,
        body: { ...disabled, status: 'active' },
      });
      expect((await api.put(`/webhooks/${id}`, { status: 'active' })).body).toEqual({
        ...disabled,
        status: 'active',
      });
      expect(await rowOf(id)).toMatchObject({
        status: 'active',
        failing_since: null,
        disabled_at: null,
      });
      expect((await api.get('/webhooks')).body).toContainEqual({ ...disabled, status: 'active' });
    });

    it('replaces the target with PUT, which re-enables; the same target changes nothing', async () => {
      const id = await create(api, 'appointment.changed', 'https://hooks.example.com/old');
      await disable(id);
      const same = await api.put(`/webhooks/${id}`, { target: 'https://hooks.example.com/old' });
      expect(same).toMatchObject({
        status: 200,
        body: {
          id,
          event: 'appointment.changed',
          target: 'https://hooks.example.com/old',
          status: 'disabled',
        },
      });
      expect(await rowOf(id)).toMatchObject({ status: 'disabled', disabled_at: expect.any(Date) });

      const moved = await api.put(`/webhooks/${id}`, { target: ' https://hooks.example.com/new ' });
      expect(moved).toMatchObject({
        status: 200,
        body: {
          id,
          event: 'appointment.changed',
          target: 'https://hooks.example.com/new',
          status: 'active',
        },
      });
      expect(await rowOf(id)).toMatchObject({
        target: 'https://hooks.example.com/new',
        status: 'active',
        failing_since: null,
        disabled_at: null,
      });
    });

    it('treats an empty PUT as no change', async () => {
      const id = await create(api, 'order.completed', 'https://hooks.example.com/orders');
      await disable(id);
      const unchanged = {
        id,
        event: 'order.completed',
        target: 'https://hooks.example.com/orders',
        status: 'disabled',
      };
      expect(await api.put(`/webhooks/${id}`)).toMatchObject({ status: 200, body: unchanged });
      expect(await api.put(`/webhooks/${id}`, {})).toMatchObject({ status: 200, body: unchanged });
      expect(await rowOf(id)).toMatchObject({ status: 'disabled' });
    });

    it.each([
      [{ status: 'disabled' }, 'invalid_status', 'Attribute "status" must be "active".'],
      [{ status: 'ACTIVE' }, 'invalid_status', 'Attribute "status" must be "active".'],
      [{ status: null }, 'invalid_status', 'Attribute "status" must be "active".'],
      [{ status: true }, 'invalid_status', 'Attribute "status" must be "active".'],
      [{ target: '' }, 'invalid_target', 'Attribute "target" cannot be cleared.'],
      [{ target: null }, 'invalid_target', 'Invalid "target" attribute value.'],
      [
        { status: 'active', target: 'gopher://hooks.example.com/' },
        'invalid_target',
        'Attribute "target" must be an http or https URL.',
      ],
    ])('refuses to update with %j: %s, changing nothing', async (body, error, message) => {
      const id = await create(api, 'appointment.scheduled', 'https://hooks.example.com/keep');
      await disable(id);
      expect(await api.put(`/webhooks/${id}`, body)).toMatchObject(apiError(400, error, message));
      expect(await rowOf(id)).toMatchObject({
        target: 'https://hooks.example.com/keep',
        status: 'disabled',
        disabled_at: expect.any(Date),
      });
    });

    it('deletes a subscription and its delivery log', async () => {
      const id = await create(api, 'appointment.scheduled', 'https://hooks.example.com/gone');
      await insertDeliveries(id, owner.id, 3);
      expect(await api.delete(`/webhooks/${id}`)).toMatchObject({ status: 204, body: undefined });
      expect(
        ((await api.get('/webhooks')).body as { id: number }[]).map((w) => w.id),
      ).not.toContain(id);
      expect(await rowOf(id)).toBeUndefined();
      expect(
        await db.query('SELECT id FROM webhook_deliveries WHERE subscription_id = ?', [id]),
      ).toEqual([]);
      expect(await api.delete(`/webhooks/${id}`)).toMatchObject(notFound);
      expect(await api.put(`/webhooks/${id}`, { status: 'active' })).toMatchObject(notFound);
      expect(await api.get(`/webhooks/${id}/deliveries`)).toMatchObject(notFound);
    });
  });

  describe('tenant isolation', () => {
    let id: number;
    let view: unknown;

    beforeAll(async () => {
      const res = await api.post('/webhooks', {
        event: 'appointment.rescheduled',
        target: 'https://hooks.example.com/mine',
      });
      id = (res.body as { id: number }).id;
      view = res.body;
      await insertDeliveries(id, owner.id, 1);
    });

    it("refuses another account's subscription with 403, changing nothing", async () => {
      expect(await stranger.put(`/webhooks/${id}`, { status: 'active' })).toMatchObject(forbidden);
      expect(
        await stranger.put(`/webhooks/${id}`, { target: 'https://evil.example/' }),
      ).toMatchObject(forbidden);
      expect(await stranger.delete(`/webhooks/${id}`)).toMatchObject(forbidden);
      expect(await stranger.get(`/webhooks/${id}/deliveries`)).toMatchObject(forbidden);
      expect((await api.get('/webhooks')).body).toContainEqual(view);
      expect(await rowOf(id)).toMatchObject({ target: 'https://hooks.example.com/mine' });
    });

    it("never lists another account's subscriptions", async () => {
      const listed = (await stranger.get('/webhooks')).body as { id: number }[];
      expect(listed.map((w) => w.id)).not.toContain(id);
    });

    it('answers 404 for an id that exists nowhere', async () => {
      expect(await api.put('/webhooks/999999999', { status: 'active' })).toMatchObject(notFound);
      expect(await api.delete('/webhooks/999999999')).toMatchObject(notFound);
      expect(await api.get('/webhooks/999999999/deliveries')).toMatchObject(notFound);
    });

    it('answers 404 for the id of a static webhook (it is not a dynamic one)', async () => {
      const { account, client } = await freshClient();
      await client.put('/integrations/webhooks', {
        scheduled: { target: 'https://hooks.example.com/static' },
      });
      const [staticRow] = await rowsOf(account.id);
      expect(await client.put(`/webhooks/${staticRow.id}`, { status: 'active' })).toMatchObject(
        notFound,
      );
      expect(await client.delete(`/webhooks/${staticRow.id}`)).toMatchObject(notFound);
      expect(await client.get(`/webhooks/${staticRow.id}/deliveries`)).toMatchObject(notFound);
      expect(await client.get('/webhooks')).toMatchObject({ status: 200, body: [] });
      expect(await rowsOf(account.id)).toHaveLength(1);
    });
  });

  describe('the limit of 25 subscriptions', () => {
    const tooMany = apiError(
      400,
      'too_many_webhooks',
      'An account can have at most 25 webhooks; delete one to add another.',
    );

    it('refuses the 26th; static webhooks do not count; deleting one makes room', async () => {
      const { account, client } = await freshClient();
      await client.put('/integrations/webhooks', {
        scheduled: { target: 'https://hooks.example.com/s1' },
        changed: { target: 'https://hooks.example.com/s2' },
      });
      const ids = [];
      for (let i = 0; i < 25; i++)
        ids.push(await create(client, 'appointment.changed', `https://hooks.example.com/${i}`));
      expect(
        await client.post('/webhooks', {
          event: 'order.completed',
          target: 'https://hooks.example.com/26',
        }),
      ).toMatchObject(tooMany);
      expect((await client.get('/webhooks')).body).toHaveLength(25);

      expect((await client.delete(`/webhooks/${ids[0]}`)).status).toBe(204);
      expect(
        (
          await client.post('/webhooks', {
            event: 'order.completed',
            target: 'https://hooks.example.com/26',
          })
        ).status,
      ).toBe(200);
      expect(await rowsOf(account.id)).toHaveLength(27);
    });

    it('holds under 40 parallel POSTs: 25 created, 15 refused', async () => {
      const { account, client } = await freshClient();
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          client.post('/webhooks', {
            event: 'appointment.scheduled',
            target: `https://hooks.example.com/storm/${i}`,
          }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(25);
      const refused = answers.filter((a) => a.status !== 200);
      expect(refused).toHaveLength(15);
      for (const answer of refused) expect(answer).toMatchObject(tooMany);
      const rows = await rowsOf(account.id);
      expect(rows).toHaveLength(25);
      expect(new Set(rows.map((row) => row.target)).size).toBe(25);
    });
  });

  describe('/webhooks/{id}/deliveries', () => {
    it('lists the latest attempts first, in the log shape', async () => {
      const id = await create(api, 'appointment.scheduled', 'https://hooks.example.com/log');
      const other = await create(api, 'appointment.scheduled', 'https://hooks.example.com/other');
      expect(await api.get(`/webhooks/${id}/deliveries`)).toMatchObject({ status: 200, body: [] });

      const first = await insertDelivery({
        subscription_id: id,
        account_id: owner.id,
        outbox_id: '9007199254740993',
        action: 'scheduled',
        resource_id: 41,
        attempt: 1,
        attempted_at: new Date('2030-03-01T10:00:00.123Z'),
        duration_ms: 5012,
        status_code: null,
        error: 'connect ECONNREFUSED 127.0.0.1:39123',
        outcome: 'retrying',
        next_retry_at: new Date('2030-03-01T10:00:02.123Z'),
      });
      await insertDelivery({
        subscription_id: other,
        account_id: owner.id,
        outbox_id: '7',
        action: 'scheduled',
        resource_id: 41,
        attempt: 1,
        attempted_at: new Date('2030-03-01T10:00:00.200Z'),
        duration_ms: 12,
        status_code: 200,
        error: null,
        outcome: 'delivered',
        next_retry_at: null,
      });
      const second = await insertDelivery({
        subscription_id: id,
        account_id: owner.id,
        outbox_id: '9007199254740993',
        action: 'scheduled',
        resource_id: 41,
        attempt: 2,
        attempted_at: new Date('2030-03-01T10:00:02.500Z'),
        duration_ms: 87,
        status_code: 500,
        error: null,
        outcome: 'retrying',
        next_retry_at: new Date('2030-03-01T10:00:32.500Z'),
      });
      const third = await insertDelivery({
        subscription_id: id,
        account_id: owner.id,
        outbox_id: '9007199254740993',
        action: 'scheduled',
        resource_id: 41,
        attempt: 3,
        attempted_at: new Date('2030-03-01T10:00:33.000Z'),
        duration_ms: 0,
        status_code: 204,
        error: null,
        outcome: 'delivered',
        next_retry_at: null,
      });

      const expected = [
        {
          id: third,
          time: '2030-03-01T10:00:33.000Z',
          action: 'scheduled',
          resourceID: 41,
          attempt: 3,
          statusCode: 204,
          error: null,
          durationMs: 0,
          outcome: 'delivered',
          nextRetry: null,
        },
        {
          id: second,
          time: '2030-03-01T10:00:02.500Z',
          action: 'scheduled',
          resourceID: 41,
          attempt: 2,
          statusCode: 500,
          error: null,
          durationMs: 87,
          outcome: 'retrying',
          nextRetry: '2030-03-01T10:00:32.500Z',
        },
        {
          id: first,
          time: '2030-03-01T10:00:00.123Z',
          action: 'scheduled',
          resourceID: 41,
          attempt: 1,
          statusCode: null,
          error: 'connect ECONNREFUSED 127.0.0.1:39123',
          durationMs: 5012,
          outcome: 'retrying',
          nextRetry: '2030-03-01T10:00:02.123Z',
        },
      ];
      expect(await api.get(`/webhooks/${id}/deliveries`)).toMatchObject({
        status: 200,
        body: expected,
      });
      expect((await api.get(`/webhooks/${id}/deliveries`)).body).toEqual(expected);
      expect((await api.get(`/webhooks/${id}/deliveries?max=2`)).body).toEqual(
        expected.slice(0, 2),
      );
      expect((await api.get(`/webhooks/${id}/deliveries?max=1`)).body).toEqual(
        expected.slice(0, 1),
      );
    });

    it('gives the order.completed action as the contract names it', async () => {
      const id = await create(api, 'order.completed', 'https://hooks.example.com/orders-log');
      await insertDeliveries(id, owner.id, 1, 'order.completed');
      expect((await api.get(`/webhooks/${id}/deliveries`)).body).toEqual([
        expect.objectContaining({ action: 'order.completed', outcome: 'delivered' }),
      ]);
    });

    it('answers 50 attempts by default and at most 100', async () => {
      const id = await create(api, 'appointment.changed', 'https://hooks.example.com/busy');
      await insertDeliveries(id, owner.id, 120);
      const all = await db.query<{ id: string | number }[]>(
        'SELECT id FROM webhook_deliveries WHERE subscription_id = ? ORDER BY id DESC',
        [id],
      );
      const latest = all.map((row) => Number(row.id));

      const byDefault = (await api.get(`/webhooks/${id}/deliveries`)).body as { id: number }[];
      expect(byDefault.map((d) => d.id)).toEqual(latest.slice(0, 50));
      const hundred = (await api.get(`/webhooks/${id}/deliveries?max=100`)).body as {
        id: number;
      }[];
      expect(hundred.map((d) => d.id)).toEqual(latest.slice(0, 100));
    });

    it.each(['0', '101', 'abc', '-1', '1.5', ''])('refuses max=%s', async (max) => {
      const id = await create(api, 'appointment.changed', 'https://hooks.example.com/max');
      expect(await api.get(`/webhooks/${id}/deliveries?max=${max}`)).toMatchObject(
        apiError(400, 'invalid_max', 'Invalid "max" attribute value.'),
      );
    });
  });

  describe('/integrations/webhooks', () => {
    it('answers every action, unset ones without a target and active', async () => {
      const { client } = await freshClient();
      expect(await client.get('/integrations/webhooks')).toMatchObject({
        status: 200,
        body: ALL_UNSET,
      });
      expect((await client.get('/integrations/webhooks')).body).toEqual(ALL_UNSET);
    });

    it('sets, replaces, re-enables and removes static webhooks', async () => {
      const { account, client } = await freshClient();

      const set = await client.put('/integrations/webhooks', {
        scheduled: { target: ' https://hooks.example.com/scheduled ' },
        orderCompleted: { target: 'https://hooks.example.com/orders', status: 'active' },
      });
      const afterSet = {
        ...ALL_UNSET,
        scheduled: { target: 'https://hooks.example.com/scheduled', status: 'active' },
        orderCompleted: { target: 'https://hooks.example.com/orders', status: 'active' },
      };
      expect(set).toMatchObject({ status: 200, body: afterSet });
      expect(set.body).toEqual(afterSet);
      expect((await client.get('/integrations/webhooks')).body).toEqual(afterSet);
      expect(
        (await rowsOf(account.id)).map((row) => [row.source, row.action, row.static_action]),
      ).toEqual([
        ['static', 'scheduled', 'scheduled'],
        ['static', 'order.completed', 'order.completed'],
      ]);
      // Static webhooks are not dynamic subscriptions.
      expect((await client.get('/webhooks')).body).toEqual([]);

      // The same target again re-enables nothing (a client putting back the targets it read);
      // "disabled" cannot be put.
      const [scheduled, orders] = await rowsOf(account.id);
      await disable(scheduled.id);
      await disable(orders.id);
      const disabled = {
        ...afterSet,
        scheduled: { ...afterSet.scheduled, status: 'disabled' },
        orderCompleted: { ...afterSet.orderCompleted, status: 'disabled' },
      };
      expect((await client.get('/integrations/webhooks')).body).toEqual(disabled);
      expect(await client.put('/integrations/webhooks', disabled)).toMatchObject(
        apiError(400, 'invalid_status', 'Attribute "scheduled.status" must be "active".'),
      );
      expect(
        (
          await client.put('/integrations/webhooks', {
            scheduled: { target: afterSet.scheduled.target },
            orderCompleted: { target: afterSet.orderCompleted.target },
          })
        ).body,
      ).toEqual(disabled);

      // A new target replaces the old one and re-enables it, on the same row.
      const replaced = await client.put('/integrations/webhooks', {
        scheduled: { target: 'https://hooks.example.com/scheduled-v2' },
      });
      expect(replaced.body).toEqual({
        ...disabled,
        scheduled: { target: 'https://hooks.example.com/scheduled-v2', status: 'active' },
      });
      expect(await rowOf(scheduled.id)).toMatchObject({
        target: 'https://hooks.example.com/scheduled-v2',
        status: 'active',
        failing_since: null,
        disabled_at: null,
      });

      // status "active" re-enables.
      const reenabled = await client.put('/integrations/webhooks', {
        orderCompleted: { status: 'active' },
        canceled: { status: 'active' },
      });
      expect(reenabled.body).toEqual({
        ...ALL_UNSET,
        scheduled: { target: 'https://hooks.example.com/scheduled-v2', status: 'active' },
        orderCompleted: { target: 'https://hooks.example.com/orders', status: 'active' },
      });
      expect(await rowOf(orders.id)).toMatchObject({
        status: 'active',
        failing_since: null,
        disabled_at: null,
      });

      // null and "" remove; their delivery logs go with them.
      await insertDeliveries(orders.id, account.id, 2, 'order.completed');
      const removed = await client.put('/integrations/webhooks', {
        scheduled: { target: null },
        orderCompleted: { target: '' },
        changed: { target: null },
      });
      expect(removed).toMatchObject({ status: 200, body: ALL_UNSET });
      expect(await rowsOf(account.id)).toEqual([]);
      expect(
        await db.query('SELECT id FROM webhook_deliveries WHERE subscription_id = ?', [orders.id]),
      ).toEqual([]);
    });

    it('treats an empty PUT as no change and ignores unknown keys', async () => {
      const { client } = await freshClient();
      await client.put('/integrations/webhooks', {
        canceled: { target: 'https://hooks.example.com/c' },
      });
      const current = {
        ...ALL_UNSET,
        canceled: { target: 'https://hooks.example.com/c', status: 'active' },
      };
      expect(await client.put('/integrations/webhooks')).toMatchObject({
        status: 200,
        body: current,
      });
      expect(
        (await client.put('/integrations/webhooks', { paid: { target: 'https://x.example/' } }))
          .body,
      ).toEqual(current);
    });

    it.each([
      [
        { scheduled: 'https://x.example/' },
        'invalid_scheduled',
        'Invalid "scheduled" attribute value.',
      ],
      [{ canceled: null }, 'invalid_canceled', 'Invalid "canceled" attribute value.'],
      [{ changed: [] }, 'invalid_changed', 'Invalid "changed" attribute value.'],
      [
        { scheduled: { target: 42 } },
        'invalid_target',
        'Invalid "scheduled.target" attribute value.',
      ],
      [
        { rescheduled: { status: 'disabled' } },
        'invalid_status',
        'Attribute "rescheduled.status" must be "active".',
      ],
      [
        { orderCompleted: { target: 'ftp://hooks.example.com/' } },
        'invalid_target',
        'Attribute "orderCompleted.target" must be an http or https URL.',
      ],
      [
        { changed: { target: 'https://hooks.example.com/ok' }, canceled: { target: 'nope' } },
        'invalid_target',
        'Attribute "canceled.target" must be an absolute URL.',
      ],
    ])('refuses %j: %s, changing nothing', async (body, error, message) => {
      const { account, client } = await freshClient();
      await client.put('/integrations/webhooks', {
        changed: { target: 'https://hooks.example.com/before' },
      });
      expect(await client.put('/integrations/webhooks', body)).toMatchObject(
        apiError(400, error, message),
      );
      expect((await rowsOf(account.id)).map((row) => [row.action, row.target])).toEqual([
        ['changed', 'https://hooks.example.com/before'],
      ]);
    });

    it('keeps one static webhook per action under 20 parallel PUTs', async () => {
      const { account, client } = await freshClient();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          client.put('/integrations/webhooks', {
            scheduled: { target: `https://hooks.example.com/race/${i}` },
            ...(i % 2 === 0
              ? { orderCompleted: { target: `https://hooks.example.com/o/${i}` } }
              : {}),
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
      const rows = await rowsOf(account.id);
      expect(rows.map((row) => row.action).sort()).toEqual(['order.completed', 'scheduled']);
      expect((await client.get('/integrations/webhooks')).body).toMatchObject({
        scheduled: { target: expect.stringMatching(/^https:\/\/hooks\.example\.com\/race\/\d+$/) },
      });
    });

    it('keeps accounts apart', async () => {
      const a = await freshClient();
      const b = await freshClient();
      await a.client.put('/integrations/webhooks', {
        scheduled: { target: 'https://hooks.example.com/a' },
      });
      await b.client.put('/integrations/webhooks', {
        scheduled: { target: 'https://hooks.example.com/b' },
      });
      expect((await a.client.get('/integrations/webhooks')).body.scheduled).toEqual({
        target: 'https://hooks.example.com/a',
        status: 'active',
      });
      await b.client.put('/integrations/webhooks', { scheduled: { target: null } });
      expect((await a.client.get('/integrations/webhooks')).body.scheduled).toEqual({
        target: 'https://hooks.example.com/a',
        status: 'active',
      });
      expect((await b.client.get('/integrations/webhooks')).body).toEqual(ALL_UNSET);
    });
  });

  describe('the target policy of a strict configuration', () => {
    let strictApp: NestFastifyApplication;
    let strict: ApiClient;
    let strictAccount: TestAccount;

    beforeAll(async () => {
      const base = testConfig();
      strictApp = await startApi({
        config: testConfig({
          webhooks: { ...base.webhooks, extraPorts: [8443], allowPrivateTargets: false },
        }),
      });
      strictAccount = await createAccount(strictApp);
      strict = apiClient(strictApp, strictAccount);
    });

    afterAll(() => strictApp.close());

    const privateTarget = (attribute: string, host: string) =>
      `Attribute "${attribute}" must not point to a private, loopback or reserved address (${host}).`;

    it.each([
      ['http://127.0.0.1/hook', privateTarget('target', '127.0.0.1')],
      ['http://10.0.0.8/hook', privateTarget('target', '10.0.0.8')],
      ['http://169.254.169.254/latest', privateTarget('target', '169.254.169.254')],
      ['http://[::1]/hook', privateTarget('target', '[::1]')],
      ['http://localhost/hook', privateTarget('target', 'localhost')],
      ['https://app.localhost/hook', privateTarget('target', 'app.localhost')],
      [
        'https://hooks.example.com:8080/',
        'Attribute "target" must use port 443, 80 or 8443, not 8080.',
      ],
      [
        'http://hooks.example.com:3000/',
        'Attribute "target" must use port 443, 80 or 8443, not 3000.',
      ],
    ])('refuses %s', async (target, message) => {
      expect(
        await strict.post('/webhooks', { event: 'appointment.scheduled', target }),
      ).toMatchObject(apiError(400, 'invalid_target', message));
    });

    it.each([
      'https://hooks.example.com/',
      'http://hooks.example.com/',
      'https://hooks.example.com:443/x',
      'https://hooks.example.com:8443/x',
      'https://8.8.8.8/hook',
    ])('accepts %s', async (target) => {
      expect(
        await strict.post('/webhooks', { event: 'appointment.scheduled', target }),
      ).toMatchObject({ status: 200, body: { target, status: 'active' } });
    });

    it('checks the target of PUT /webhooks/{id} and of the static webhooks the same way', async () => {
      const id = await create(strict, 'appointment.changed', 'https://hooks.example.com/strict');
      expect(await strict.put(`/webhooks/${id}`, { target: 'http://192.168.0.10/' })).toMatchObject(
        apiError(400, 'invalid_target', privateTarget('target', '192.168.0.10')),
      );
      expect(
        await strict.put('/integrations/webhooks', {
          changed: { target: 'http://localhost:8443/' },
        }),
      ).toMatchObject(
        apiError(400, 'invalid_target', privateTarget('changed.target', 'localhost')),
      );
      expect(
        await strict.put('/integrations/webhooks', {
          scheduled: { target: 'https://hooks.example.com:9443/' },
        }),
      ).toMatchObject(
        apiError(
          400,
          'invalid_target',
          'Attribute "scheduled.target" must use port 443, 80 or 8443, not 9443.',
        ),
      );
      expect((await strict.get('/integrations/webhooks')).body).toEqual(ALL_UNSET);
      expect(await rowOf(id)).toMatchObject({ target: 'https://hooks.example.com/strict' });
    });
  });

  let deliveryCounter = 0;

  async function insertDelivery(row: Record<string, unknown>): Promise<number> {
    const columns = Object.keys(row);
    const result = await db.query<{ insertId: number }>(
      `INSERT INTO webhook_deliveries (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      Object.values(row),
    );
    return Number(result.insertId);
  }

  /** `count` delivered attempts of as many events, oldest first. */
  async function insertDeliveries(
    subscriptionId: number,
    accountId: number,
    count: number,
    action = 'scheduled',
  ): Promise<void> {
    for (let i = 0; i < count; i++) {
      deliveryCounter++;
      await insertDelivery({
        subscription_id: subscriptionId,
        account_id: accountId,
        outbox_id: deliveryCounter,
        action,
        resource_id: deliveryCounter,
        attempt: 1,
        attempted_at: new Date(Date.UTC(2030, 0, 1) + deliveryCounter * 1000),
        duration_ms: 10,
        status_code: 200,
        error: null,
        outcome: 'delivered',
        next_retry_at: null,
      });
    }
  }
});
