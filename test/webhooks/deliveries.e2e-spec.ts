import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { WebhookDeliveryQueue } from '../../src/modules/webhooks/webhook-delivery-queue';
import { WebhookRecovery } from '../../src/modules/webhooks/webhook-recovery';
import { eventually } from '../support/eventually';
import { startApi, startWorker } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { type ReceivedRequest, Receiver, header, signatureProblem } from './receiver';
import { type Booked, type Shop, book, nextSlot, openShop } from './shops';

/** The contract's ladder (the default) at 5% of its length: 100 ms, 1.5 s, 3 s, 15 s, … */
const LADDER = AppConfig.fromEnvironment({ WEBHOOK_TIME_SCALE: '0.05' }).webhooks.retryDelaysMs;
/** Failures continuing this long disable a subscription: reached at the 4th attempt (~4.6 s). */
const DISABLE_AFTER_MS = 2500;

const FORM = 'application/x-www-form-urlencoded';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Webhook delivery end to end: the API (in-process, Fastify inject) records events; a worker
 * (in-process, the real WorkerModule: relay, fan-out, deliveries, sweeper) delivers them over HTTP to
 * real receivers on 127.0.0.1. Both use a queue prefix of this file's own, so no other test's worker
 * takes these jobs. The ladder is the default one scaled down; the disable window is short.
 */
describe('Webhooks: delivery (e2e)', () => {
  let app: NestFastifyApplication;
  let worker: TestingModule;
  let db: DataSource;
  let receiver: Receiver;
  let elsewhere: Receiver;

  beforeAll(async () => {
    const base = testConfig();
    const config = base.with({
      queue: { prefix: `${base.queue.prefix}:deliveries` },
      webhooks: { ...base.webhooks, retryDelaysMs: LADDER, disableAfterMs: DISABLE_AFTER_MS },
    });
    app = await startApi({ config });
    db = app.get(DataSource);
    worker = await startWorker(config);
    receiver = await Receiver.start();
    elsewhere = await Receiver.start();
  });

  let workerClosed = false;

  afterAll(async () => {
    if (!workerClosed) await worker?.close();
    await app?.close();
    await receiver?.close();
    await elsewhere?.close();
  });

  it('uses the default ladder, scaled', () => {
    expect(LADDER.slice(0, 3)).toEqual([100, 1500, 3000]);
  });

  async function ok(
    res: Promise<{ status: number; body: unknown }>,
    what: string,
  ): Promise<Record<string, unknown>> {
    const { status, body } = await res;
    if (status !== 200 && status !== 204)
      throw new Error(`${what} → ${status} ${JSON.stringify(body)}`);
    return body as Record<string, unknown>;
  }

  async function subscribe(shop: Shop, event: string, path: string): Promise<number> {
    const body = await ok(
      shop.api.post('/webhooks', { event, target: receiver.url(path) }),
      'POST /webhooks',
    );
    return body.id as number;
  }

  async function staticIds(shop: Shop): Promise<Record<string, number>> {
    const rows = await db.query<{ id: number; action: string }[]>(
      "SELECT id, action FROM webhook_subscriptions WHERE account_id = ? AND source = 'static'",
      [shop.account.id],
    );
    return Object.fromEntries(rows.map((r) => [r.action, r.id]));
  }

  async function deliveries(shop: Shop, id: number) {
    const res = await shop.api.get(`/webhooks/${id}/deliveries`);
    expect(res.status).toBe(200);
    return res.body as Record<string, unknown>[];
  }

  const appointmentBody = (action: string, a: Booked) =>
    `action=${action}&id=${a.id}&calendarID=${a.calendarID}&appointmentTypeID=${a.appointmentTypeID}`;

  /** The webhook-id's parts: the outbox row of the event and the subscription. */
  function idOf(request: ReceivedRequest): { outboxId: string; subscriptionId: number } {
    const match = /^msg_(\d+)_(\d+)$/.exec(header(request, 'webhook-id') ?? '');
    if (!match) throw new Error(`bad webhook-id ${header(request, 'webhook-id')}`);
    return { outboxId: match[1], subscriptionId: Number(match[2]) };
  }

  /** Waits until `path` has received `count` requests, then a little longer to catch extra ones. */
  async function settled(path: string, count: number, quietMs = 400): Promise<ReceivedRequest[]> {
    await eventually(() => (receiver.received(path).length >= count ? true : undefined));
    await sleep(quietMs);
    return receiver.received(path);
  }

  it('delivers every action to static and dynamic subscribers: POST, form body, both signatures, once each', async () => {
    const shop = await openShop(app);
    const actions = ['scheduled', 'rescheduled', 'canceled', 'changed', 'order.completed'];
    const path = (source: string, action: string) => `/all-${shop.account.id}/${source}/${action}`;
    await ok(
      shop.api.put('/integrations/webhooks', {
        scheduled: { target: receiver.url(path('static', 'scheduled')) },
        rescheduled: { target: receiver.url(path('static', 'rescheduled')) },
        canceled: { target: receiver.url(path('static', 'canceled')) },
        changed: { target: receiver.url(path('static', 'changed')) },
        orderCompleted: { target: receiver.url(path('static', 'order.completed')) },
      }),
      'PUT /integrations/webhooks',
    );
    const subscriptionOf: Record<string, number> = {};
    for (const action of actions) {
      const event = action === 'order.completed' ? action : `appointment.${action}`;
      subscriptionOf[`dynamic/${action}`] = await subscribe(shop, event, path('dynamic', action));
    }
    for (const [action, id] of Object.entries(await staticIds(shop)))
      subscriptionOf[`static/${action}`] = id;

    // Book, edit, move, cancel; sell a gift certificate.
    const booked = await book(shop);
    await ok(shop.api.put(`/appointments/${booked.id}`, { firstName: 'Grace' }), 'update');
    await ok(
      shop.api.put(`/appointments/${booked.id}/reschedule`, { datetime: nextSlot(shop) }),
      'reschedule',
    );
    await ok(shop.api.put(`/appointments/${booked.id}/cancel`, {}), 'cancel');
    const product = await ok(
      shop.api.post('/products', { name: 'Gift card', price: 50, type: 'gift' }),
      'product',
    );
    const order = await ok(
      shop.api.post('/orders', {
        productID: product.id,
        firstName: 'Ann',
        lastName: 'Lee',
        email: 'ann@example.com',
      }),
      'order',
    );
    await ok(shop.api.put(`/orders/${order.id as number}/complete`), 'complete');

    const expected: Record<string, string[]> = {
      scheduled: [appointmentBody('scheduled', booked)],
      rescheduled: [appointmentBody('rescheduled', booked)],
      canceled: [appointmentBody('canceled', booked)],
      // Every change: booked, edited, moved, canceled (same calendar and type throughout).
      changed: Array(4).fill(appointmentBody('changed', booked)) as string[],
      'order.completed': [`action=order.completed&id=${order.id as number}`],
    };
    const events = await db.query<{ id: number | string; type: string }[]>(
      'SELECT id, type FROM outbox WHERE account_id = ?',
      [shop.account.id],
    );
    const typeOfEvent = new Map(events.map((e) => [String(e.id), e.type]));

    for (const source of ['static', 'dynamic']) {
      for (const action of actions) {
        const got = await settled(path(source, action), expected[action].length);
        expect({ source, action, bodies: got.map((r) => r.body) }).toEqual({
          source,
          action,
          bodies: expected[action],
        });
        for (const request of got) {
          expect({
            method: request.method,
            contentType: header(request, 'content-type'),
            signature: signatureProblem(request, shop.account.apiKey),
          }).toEqual({ method: 'POST', contentType: FORM, signature: null });
          const { outboxId, subscriptionId } = idOf(request);
          expect(subscriptionId).toBe(subscriptionOf[`${source}/${action}`]);
          // A change records one event; `changed` is delivered beside a booking's, a move's and
          // a cancellation's (deliveredAs), so its outbox row is of any appointment event.
          const type = typeOfEvent.get(outboxId);
          if (action === 'changed') expect(type).toMatch(/^appointment\./);
          else expect(type).toBe(action === 'order.completed' ? action : `appointment.${action}`);
        }
      }
    }
    // Each (event, subscription) once: 2 × (1 + 1 + 1 + 4 + 1) requests, all of distinct ids.
    const mine = receiver.requests.filter((r) => r.path.startsWith(`/all-${shop.account.id}/`));
    expect(mine).toHaveLength(16);
    expect(new Set(mine.map((r) => header(r, 'webhook-id'))).size).toBe(16);

    const log = await deliveries(shop, subscriptionOf['dynamic/changed']);
    expect(log).toHaveLength(4);
    for (const line of log)
      expect(line).toEqual({
        id: expect.any(Number),
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        action: 'changed',
        resourceID: booked.id,
        attempt: 1,
        statusCode: 200,
        error: null,
        durationMs: expect.any(Number),
        outcome: 'delivered',
        nextRetry: null,
      });
  });

  it('delivers a burst of bookings exactly once per (event, subscription)', async () => {
    const shop = await openShop(app);
    const path = `/burst-${shop.account.id}`;
    await ok(
      shop.api.put('/integrations/webhooks', { scheduled: { target: receiver.url(path) } }),
      'PUT /integrations/webhooks',
    );
    await subscribe(shop, 'appointment.scheduled', path);
    const booked: Booked[] = [];
    for (let wave = 0; wave < 4; wave++)
      booked.push(...(await Promise.all(Array.from({ length: 10 }, () => book(shop)))));

    const got = await settled(path, 80, 1000);
    expect(got).toHaveLength(80);
    const ids = got.map((r) => header(r, 'webhook-id'));
    expect(new Set(ids).size).toBe(80);
    expect(got.map((r) => new URLSearchParams(r.body).get('id')).sort()).toEqual(
      booked.flatMap((a) => [String(a.id), String(a.id)]).sort(),
    );
  });

  it('retries after HTTP 500 on the ladder (≈100 ms, then ≈1.5 s) with the same webhook-id, and logs each attempt', async () => {
    const shop = await openShop(app);
    const path = `/flaky-${shop.account.id}`;
    receiver.answer(path, (_request, nth) => ({ status: nth <= 2 ? 500 : 200 }));
    const subscription = await subscribe(shop, 'appointment.scheduled', path);
    const booked = await book(shop);

    const got = await settled(path, 3, LADDER[2] + 500);
    expect(got).toHaveLength(3);
    const [first, second, third] = got;
    const gaps = [second.at - first.at, third.at - second.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(LADDER[0] - 5);
    expect(gaps[0]).toBeLessThan(LADDER[0] + 1000);
    expect(gaps[1]).toBeGreaterThanOrEqual(LADDER[1] - 5);
    expect(gaps[1]).toBeLessThan(LADDER[1] + 1500);
    // The same message each time, signed anew.
    expect(new Set(got.map((r) => header(r, 'webhook-id'))).size).toBe(1);
    for (const request of got) {
      expect(request.body).toBe(appointmentBody('scheduled', booked));
      expect(signatureProblem(request, shop.account.apiKey)).toBeNull();
    }

    const log = await deliveries(shop, subscription);
    expect(log.map((l) => [l.attempt, l.statusCode, l.error, l.outcome])).toEqual([
      [3, 200, null, 'delivered'],
      [2, 500, 'HTTP 500', 'retrying'],
      [1, 500, 'HTTP 500', 'retrying'],
    ]);
    expect(log[0].nextRetry).toBeNull();
    for (const [line, rung] of [
      [log[2], LADDER[0]],
      [log[1], LADDER[1]],
    ] as const) {
      const wait =
        Date.parse(line.nextRetry as string) -
        Date.parse(line.time as string) -
        (line.durationMs as number);
      // durationMs is whole milliseconds: the difference may be off by one either way.
      expect(wait).toBeGreaterThanOrEqual(rung - 2);
      expect(wait).toBeLessThan(rung + 100);
    }
    // A success ends the failure streak.
    const [row] = await db.query<{ status: string; failing_since: Date | null }[]>(
      'SELECT status, failing_since FROM webhook_subscriptions WHERE id = ?',
      [subscription],
    );
    expect(row).toEqual({ status: 'active', failing_since: null });
  });

  it('does not retry HTTP 404, 400 or 502, does not follow a redirect, and does not count them as failures', async () => {
    const shop = await openShop(app);
    const away = `/moved-here-${shop.account.id}`;
    const cases = [
      { status: 404, error: 'HTTP 404' },
      { status: 400, error: 'HTTP 400' },
      { status: 502, error: 'HTTP 502' },
      { status: 302, error: 'HTTP 302 (redirects are not followed)' },
    ];
    const subscriptions: number[] = [];
    for (const { status } of cases) {
      const path = `/refuses-${shop.account.id}/${status}`;
      receiver.answer(path, {
        status,
        headers: status === 302 ? { location: elsewhere.url(away) } : {},
      });
      subscriptions.push(await subscribe(shop, 'appointment.scheduled', path));
    }
    await book(shop);

    // Past the first two rungs: a retry would have come.
    await sleep(LADDER[0] + LADDER[1] + 500);
    for (const [i, { status, error }] of cases.entries()) {
      expect({
        status,
        requests: receiver.received(`/refuses-${shop.account.id}/${status}`).length,
      }).toEqual({
        status,
        requests: 1,
      });
      const log = await deliveries(shop, subscriptions[i]);
      expect(log.map((l) => [l.attempt, l.statusCode, l.error, l.outcome, l.nextRetry])).toEqual([
        [1, status, error, 'failed', null],
      ]);
    }
    expect(elsewhere.requests).toEqual([]);
    const rows = await db.query<{ status: string; failing_since: Date | null }[]>(
      'SELECT status, failing_since FROM webhook_subscriptions WHERE id IN (?) ORDER BY id',
      [subscriptions],
    );
    expect(rows).toEqual(cases.map(() => ({ status: 'active', failing_since: null })));
  });

  it('sends a message once however many of its jobs run', async () => {
    const shop = await openShop(app);
    const path = `/raced-${shop.account.id}`;
    receiver.answer(path, { status: 200, delayMs: 300 });
    const subscription = await subscribe(shop, 'appointment.scheduled', path);
    const queue = worker.get(WebhookDeliveryQueue);
    await book(shop);
    const [message] = await eventually(async () => {
      const rows = await db.query<{ id: number | string }[]>(
        'SELECT id FROM webhook_messages WHERE subscription_id = ?',
        [subscription],
      );
      return rows.length > 0 ? rows : undefined;
    });
    const messageId = String(message.id);
    // Duplicates while the first attempt is in flight, then after it was delivered.
    const duplicates = (tag: string) =>
      queue.add(
        Array.from({ length: 5 }, (_, i) => ({ messageId, jobId: `wh:${messageId}:${tag}${i}` })),
      );
    await duplicates('during');
    await settled(path, 1, 800);
    await duplicates('after');
    const got = await settled(path, 1, 800);
    expect(got).toHaveLength(1);
    expect((await deliveries(shop, subscription)).map((l) => [l.attempt, l.outcome])).toEqual([
      [1, 'delivered'],
    ]);
  });

  it('revives a message whose job was lost once its lease is over, on the same ladder rung', async () => {
    const shop = await openShop(app);
    const booked = await book(shop);
    // The booking's event is fanned out before the subscription exists (on a loaded machine the
    // worker may take a while: subscribing earlier would put the subscription in the fan-out).
    const [event] = await eventually(async () => {
      const rows = await db.query<{ id: number | string }[]>(
        `SELECT id FROM outbox
          WHERE account_id = ? AND type = 'appointment.scheduled' AND processed_at IS NOT NULL`,
        [shop.account.id],
      );
      return rows.length > 0 ? rows : undefined;
    });
    // Subscribed after the booking: the fan-out did not include it. Its message is written here as
    // a worker that died in its 2nd attempt (after a failed 1st) leaves it, its job lost with Redis.
    const path = `/revived-${shop.account.id}`;
    receiver.answer(path, (_request, nth) => ({ status: nth === 1 ? 500 : 200 }));
    const subscription = await subscribe(shop, 'appointment.scheduled', path);
    const now = Date.now();
    await db.query(
      `INSERT INTO webhook_messages
         (account_id, subscription_id, outbox_id, action, resource_id, variables, status, attempts,
          next_attempt_at, leased_until, created_at, updated_at)
       VALUES (?, ?, ?, 'scheduled', ?, ?, 'pending', 1, ?, ?, ?, ?)`,
      [
        shop.account.id,
        subscription,
        event.id,
        booked.id,
        JSON.stringify([
          ['action', 'scheduled'],
          ['id', booked.id],
          ['calendarID', booked.calendarID],
          ['appointmentTypeID', booked.appointmentTypeID],
        ]),
        new Date(now - 60_000),
        new Date(now + 3000),
        new Date(now - 70_000),
        new Date(now - 60_000),
      ],
    );
    const recovery = worker.get(WebhookRecovery);
    // Leased: an attempt may still be in flight somewhere, so nothing is sent before the lease ends.
    await recovery.sweepOnce();
    await sleep(1000);
    expect(receiver.received(path)).toEqual([]);
    await sleep(now + 3000 - Date.now() + 50);
    await recovery.sweepOnce();

    const got = await settled(path, 2);
    expect(got).toHaveLength(2);
    expect(
      got.map((r) => [r.body, header(r, 'webhook-id'), signatureProblem(r, shop.account.apiKey)]),
    ).toEqual(
      got.map(() => [
        appointmentBody('scheduled', booked),
        `msg_${event.id}_${subscription}`,
        null,
      ]),
    );
    const log = await deliveries(shop, subscription);
    expect(log.map((l) => [l.attempt, l.statusCode, l.outcome])).toEqual([
      [3, 200, 'delivered'],
      [2, 500, 'retrying'],
    ]);
    const wait =
      Date.parse(log[1].nextRetry as string) -
      Date.parse(log[1].time as string) -
      (log[1].durationMs as number);
    expect(wait).toBeGreaterThanOrEqual(LADDER[1]);
    expect(wait).toBeLessThan(LADDER[1] + 100);
    expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(LADDER[1] - 5);
  });

  it('disables a subscription failing for the window, sends it nothing more, and delivers again once re-enabled', async () => {
    const shop = await openShop(app);
    const path = `/down-${shop.account.id}`;
    let up = false;
    receiver.answer(path, () => ({ status: up ? 200 : 500 }));
    const dynamic = await subscribe(shop, 'appointment.scheduled', path);
    await ok(
      shop.api.put('/integrations/webhooks', { scheduled: { target: receiver.url(path) } }),
      'PUT /integrations/webhooks',
    );
    const first = await book(shop);

    // Attempts at ~0, 0.1, 1.6 and 4.6 s: the 4th finds failures lasting past 2.5 s.
    await eventually(async () => {
      const res = await shop.api.get('/webhooks');
      return (res.body as { status: string }[])[0]?.status === 'disabled' ? true : undefined;
    }, 20_000);
    await eventually(async () => {
      const res = await shop.api.get('/integrations/webhooks');
      return (res.body as { scheduled: { status: string } }).scheduled.status === 'disabled'
        ? true
        : undefined;
    }, 20_000);
    expect((await shop.api.get('/webhooks')).body).toEqual([
      {
        id: dynamic,
        event: 'appointment.scheduled',
        target: receiver.url(path),
        status: 'disabled',
      },
    ]);
    const log = await deliveries(shop, dynamic);
    expect(log.map((l) => [l.attempt, l.statusCode, l.outcome])).toEqual([
      [4, 500, 'stopped'],
      [3, 500, 'retrying'],
      [2, 500, 'retrying'],
      [1, 500, 'retrying'],
    ]);
    const failedSoFar = receiver.received(path);
    expect(failedSoFar).toHaveLength(8); // 4 attempts × 2 subscriptions
    expect(new Set(failedSoFar.map((r) => r.body))).toEqual(
      new Set([appointmentBody('scheduled', first)]),
    );

    // Disabled: a new booking is not announced, even once the receiver is back.
    up = true;
    await book(shop);
    await sleep(1000);
    expect(receiver.received(path)).toHaveLength(8);

    // Re-enabled through the API: the next booking is delivered to both.
    expect((await shop.api.put(`/webhooks/${dynamic}`, { status: 'active' })).body).toMatchObject({
      status: 'active',
    });
    await ok(
      shop.api.put('/integrations/webhooks', { scheduled: { status: 'active' } }),
      'PUT /integrations/webhooks',
    );
    const third = await book(shop);
    const got = await settled(path, 10);
    expect(got.slice(8).map((r) => [r.body, signatureProblem(r, shop.account.apiKey)])).toEqual([
      [appointmentBody('scheduled', third), null],
      [appointmentBody('scheduled', third), null],
    ]);
    expect((await deliveries(shop, dynamic))[0]).toMatchObject({
      resourceID: third.id,
      attempt: 1,
      statusCode: 200,
      outcome: 'delivered',
    });
  });

  // Last: it stops the worker.
  it('lets the delivery in flight finish and be recorded when the worker stops gracefully', async () => {
    const shop = await openShop(app);
    const path = `/slow-${shop.account.id}`;
    receiver.answer(path, { status: 200, delayMs: 1000 });
    const subscription = await subscribe(shop, 'appointment.scheduled', path);
    await book(shop);
    await eventually(() => (receiver.received(path).length === 1 ? true : undefined));
    const stopping = Date.now();
    workerClosed = true;
    await worker.close();
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(500);
    expect(
      (await deliveries(shop, subscription)).map((l) => [
        l.attempt,
        l.statusCode,
        l.error,
        l.outcome,
      ]),
    ).toEqual([[1, 200, null, 'delivered']]);
  });
});
