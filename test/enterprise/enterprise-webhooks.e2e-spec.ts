import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { apiError } from '../support/api-client';
import {
  type TestEnterprise,
  createEnterprise,
  createMember,
  memberClient,
  send,
} from '../support/enterprise-fixtures';
import { eventually } from '../support/eventually';
import { startApi, startWorker } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { SmtpSink } from '../notifications/sinks';
import { type ReceivedRequest, Receiver, signatureProblem } from '../webhooks/receiver';
import { type Booked, type Shop, book, openShop } from '../webhooks/shops';

const WEBHOOKS = '/api/enterprise/v1/webhooks';
const FORM = 'application/x-www-form-urlencoded';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SMTP_CREDENTIALS = { user: 'mailer', password: 'smtp-secret' };

/**
 * Enterprise webhooks end to end: the API in-process, a real worker (relay, fan-out, deliveries),
 * real receivers on 127.0.0.1. One enterprise subscription hears every member's events, the member
 * named in the body and the enterprise's key signing; the members' own subscriptions go on as before.
 */
describe('Enterprise API: webhooks and e-mails (e2e)', () => {
  let app: NestFastifyApplication;
  let worker: TestingModule;
  let receiver: Receiver;
  let smtp: SmtpSink;
  let acme: TestEnterprise;
  let globex: TestEnterprise;

  beforeAll(async () => {
    smtp = await SmtpSink.start(SMTP_CREDENTIALS);
    const base = testConfig();
    const config = base.with({
      queue: { prefix: `${base.queue.prefix}:enterprise-webhooks` },
      notifications: {
        ...base.notifications,
        mail: smtp.mailConfig(),
      },
    });
    app = await startApi({ config });
    worker = await startWorker(config);
    receiver = await Receiver.start();
    acme = await createEnterprise(app, 'Acme');
    globex = await createEnterprise(app, 'Globex');
  });
  afterAll(async () => {
    await worker?.close();
    await app?.close();
    await receiver?.close();
    await smtp?.close();
  });

  const subscribe = (enterprise: TestEnterprise, event: string, path: string) =>
    send(app, 'POST', WEBHOOKS, enterprise.authorization, { event, target: receiver.url(path) });

  async function settled(path: string, count: number, quietMs = 400): Promise<ReceivedRequest[]> {
    await eventually(() => (receiver.received(path).length >= count ? true : undefined));
    await sleep(quietMs);
    return receiver.received(path);
  }

  const body = (a: Booked) =>
    `action=scheduled&id=${a.id}&calendarID=${a.calendarID}&appointmentTypeID=${a.appointmentTypeID}`;

  describe('subscriptions: POST, GET, DELETE', () => {
    it('creates, lists and deletes, each enterprise its own', async () => {
      const group = await createEnterprise(app);
      const created = await subscribe(group, 'appointment.canceled', '/crud');
      expect(created).toMatchObject({
        status: 200,
        body: {
          id: expect.any(Number),
          event: 'appointment.canceled',
          target: receiver.url('/crud'),
          status: 'active',
        },
      });
      const id = (created.body as { id: number }).id;
      expect(await send(app, 'GET', WEBHOOKS, group.authorization)).toMatchObject({
        status: 200,
        body: [created.body],
      });
      expect((await send(app, 'GET', WEBHOOKS, globex.authorization)).body).not.toContainEqual(
        created.body,
      );
      expect(await send(app, 'DELETE', `${WEBHOOKS}/${id}`, globex.authorization)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      expect(await send(app, 'DELETE', `${WEBHOOKS}/${id}`, group.authorization)).toMatchObject({
        status: 204,
      });
      expect(await send(app, 'DELETE', `${WEBHOOKS}/${id}`, group.authorization)).toMatchObject(
        apiError(404, 'not_found', 'Not Found'),
      );
      expect((await send(app, 'GET', WEBHOOKS, group.authorization)).body).toEqual([]);
    });

    it("keeps members' and the enterprise's subscriptions apart", async () => {
      const group = await createEnterprise(app);
      const member = await createMember(app, group);
      const mine = await send(app, 'POST', '/api/v1/webhooks', member.authorization, {
        event: 'appointment.scheduled',
        target: receiver.url('/member-own'),
      });
      const theirs = await subscribe(group, 'appointment.scheduled', '/group-own');
      const mineId = (mine.body as { id: number }).id;
      const theirsId = (theirs.body as { id: number }).id;
      expect((await send(app, 'GET', '/api/v1/webhooks', member.authorization)).body).toEqual([
        mine.body,
      ]);
      expect((await send(app, 'GET', WEBHOOKS, group.authorization)).body).toEqual([theirs.body]);
      // The member's key cannot touch the enterprise's, nor the enterprise's own endpoint the member's.
      expect(
        await send(app, 'DELETE', `/api/v1/webhooks/${theirsId}`, member.authorization),
      ).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
      expect(await send(app, 'DELETE', `${WEBHOOKS}/${mineId}`, group.authorization)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      // Through the member path, the enterprise manages the member's own, as the member would.
      expect((await memberClient(app, group, member.id).get('/webhooks')).body).toEqual([
        mine.body,
      ]);
    });

    it.each([
      [{ target: 'http://127.0.0.1:1/x' }, 'required_event'],
      [{ event: 'appointment.exploded', target: 'http://127.0.0.1:1/x' }, 'invalid_event'],
      [{ event: 'appointment.scheduled', target: 'ftp://example.test/x' }, 'invalid_target'],
      [{ event: 'appointment.scheduled' }, 'required_target'],
    ])('refuses %j (400 %s), writing nothing', async (request, error) => {
      const group = await createEnterprise(app);
      const res = await send(app, 'POST', WEBHOOKS, group.authorization, request);
      expect(res).toMatchObject({ status: 400, body: { status_code: 400, error } });
      expect((await send(app, 'GET', WEBHOOKS, group.authorization)).body).toEqual([]);
    });

    it("refuses a member's key and no key (401)", async () => {
      const member = await createMember(app, acme);
      for (const [method, path] of [
        ['GET', WEBHOOKS],
        ['POST', WEBHOOKS],
        ['DELETE', `${WEBHOOKS}/1`],
      ] as const) {
        for (const authorization of [member.authorization, undefined]) {
          const res = await send(
            app,
            method,
            path,
            authorization,
            method === 'POST' ? {} : undefined,
          );
          expect(res).toMatchObject(apiError(401, 'unauthorized', 'Unauthorized'));
        }
      }
    });

    it('holds at most 25 per enterprise', async () => {
      const group = await createEnterprise(app);
      const made = await Promise.all(
        Array.from({ length: 26 }, (_, i) => subscribe(group, 'appointment.changed', `/many-${i}`)),
      );
      expect(made.filter((r) => r.status === 200)).toHaveLength(25);
      expect(made.filter((r) => r.status === 400)).toMatchObject([
        apiError(
          400,
          'too_many_webhooks',
          'An enterprise can have at most 25 webhooks; delete one to add another.',
        ),
      ]);
    });
  });

  describe('deliveries', () => {
    let shops: Shop[];
    let outsider: Shop;

    beforeAll(async () => {
      shops = [
        await openShop(app, await createMember(app, acme)),
        await openShop(app, await createMember(app, acme)),
      ];
      outsider = await openShop(app, await createMember(app, globex));
    });

    it("delivers every member's events to the enterprise, naming the member, signed with the enterprise's key", async () => {
      expect((await subscribe(acme, 'appointment.scheduled', '/acme')).status).toBe(200);
      expect((await subscribe(globex, 'appointment.scheduled', '/globex')).status).toBe(200);
      // A member's own subscription, made through the enterprise: unchanged, the member's key signs.
      const own = await memberClient(app, acme, shops[0].account.id).post('/webhooks', {
        event: 'appointment.scheduled',
        target: receiver.url('/member-0'),
      });
      expect(own.status).toBe(200);

      const first = await book(shops[0]);
      const second = await book(shops[1]);
      // Booked through the enterprise: the same event, the same deliveries.
      const third = (
        await memberClient(app, acme, shops[1].account.id).post('/appointments', {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.com',
          appointmentTypeID: shops[1].type,
          calendarID: shops[1].calendar,
          datetime: '2030-06-10T09:00:00-04:00',
        })
      ).body as Booked;

      const received = await settled('/acme', 3);
      expect(received.map((r) => r.body).sort()).toEqual(
        [
          `${body(first)}&userId=${shops[0].account.id}`,
          `${body(second)}&userId=${shops[1].account.id}`,
          `${body(third)}&userId=${shops[1].account.id}`,
        ].sort(),
      );
      for (const request of received) {
        expect(request.method).toBe('POST');
        expect(request.headers['content-type']).toBe(FORM);
        expect(signatureProblem(request, acme.apiKey)).toBeNull();
        expect(signatureProblem(request, shops[0].account.apiKey)).not.toBeNull();
      }

      const memberOwn = await settled('/member-0', 1);
      expect(memberOwn.map((r) => r.body)).toEqual([body(first)]);
      expect(signatureProblem(memberOwn[0], shops[0].account.apiKey)).toBeNull();

      // Another enterprise hears its own member only, and Acme none of that.
      const elsewhere = await book(outsider);
      const globexReceived = await settled('/globex', 1);
      expect(globexReceived.map((r) => r.body)).toEqual([
        `${body(elsewhere)}&userId=${outsider.account.id}`,
      ]);
      expect(signatureProblem(globexReceived[0], globex.apiKey)).toBeNull();
      expect(receiver.received('/acme')).toHaveLength(3);
    });
  });

  it("e-mails the client as the member's own key does", async () => {
    // An enterprise of its own, without subscriptions: these bookings leave no webhook pending.
    const group = await createEnterprise(app);
    const shop = await openShop(app, await createMember(app, group));
    const datetime = '2030-06-17T10:00:00-04:00';
    const booking = (email: string) => ({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email,
      appointmentTypeID: shop.type,
      calendarID: shop.calendar,
      datetime,
    });
    const ownEmail = `own-${process.pid}@example.test`;
    const throughEmail = `through-${process.pid}@example.test`;
    const confirmation = async (email: string) => {
      const found = () =>
        smtp
          .received(email)
          .find((mail) => mail.parsed.subject?.startsWith('Your appointment is confirmed'));
      return eventually(found);
    };
    const own = (await shop.api.post('/appointments', booking(ownEmail))).body as Booked;
    // Its confirmation sent, the own booking is canceled to free the slot for the same booking
    // through the enterprise: the two e-mails then tell the same time.
    const ownMail = await confirmation(ownEmail);
    expect((await shop.api.put(`/appointments/${own.id}/cancel`, {})).status).toBe(200);
    const through = await memberClient(app, group, shop.account.id).post(
      '/appointments',
      booking(throughEmail),
    );
    expect(through.status).toBe(200);
    const throughId = (through.body as Booked).id;
    await confirmation(throughEmail);
    await sleep(400);
    const [throughMail] = smtp.received(throughEmail);
    expect(smtp.received(throughEmail)).toHaveLength(1);
    expect(throughMail.parsed.from?.value).toEqual(ownMail.parsed.from?.value);
    expect(throughMail.parsed.subject).toBe(ownMail.parsed.subject);
    // The same e-mail but for the appointment's own link (its id and token).
    const unlinked = (text: string | undefined) =>
      (text ?? '').replace(/\/confirmation\/\d+-[0-9a-f]+/g, '/confirmation/{appointment}');
    expect(throughMail.parsed.text).toContain(`/confirmation/${throughId}-`);
    expect(unlinked(throughMail.parsed.text)).toBe(unlinked(ownMail.parsed.text));
  });

  it('leaves no delivery pending (other specs sweep the same database)', async () => {
    const db = app.get(DataSource);
    const pending = async () => {
      const [{ n }] = await db.query<{ n: number | string }[]>(
        `SELECT COUNT(*) AS n FROM webhook_messages m
           JOIN accounts a ON a.id = m.account_id
          WHERE m.status = 'pending' AND a.enterprise_id IN (?)`,
        [[acme.id, globex.id]],
      );
      return Number(n);
    };
    expect(await eventually(async () => ((await pending()) === 0 ? 0 : undefined))).toBe(0);
  });
});
