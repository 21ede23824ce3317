import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { accessToken, bearer, ownerAccount, registerClient } from '../oauth/oauth-fixtures';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType, createCalendar } from '../support/catalog-fixtures';
import { eventually } from '../support/eventually';
import { outboxEvents } from '../support/outbox-events';
import { type TestAccount, createAccount, startApi, startWorker } from '../support/test-app';
import { testConfig } from '../support/test-environment';
import { Receiver, header, signatureProblem } from '../webhooks/receiver';

/** A Monday in New York (-0400). */
const MONDAY = '2030-06-03';
const client = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
/** How the reference writes `created`: ISO 8601, seconds, the offset without a colon. */
const API_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{4}$/;

interface AppointmentBody {
  id: number;
  [attribute: string]: unknown;
}

describe('Appointment payments: GET and POST /appointments/{id}/payments (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let owner: TestAccount;
  let api: ApiClient;
  let stranger: ApiClient;
  let calendar: number;
  let type: number;
  let hour = 8;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    owner = await createAccount(app, { timezone: 'America/Chicago' });
    api = apiClient(app, owner);
    stranger = apiClient(app, await createAccount(app));
    calendar = await createCalendar(api, { name: 'Alex', timezone: 'America/New_York' });
    type = await createAppointmentType(api, {
      name: 'Haircut',
      duration: 30,
      price: '40.00',
      calendarIDs: [calendar],
    });
  });

  afterAll(() => app.close());

  /** A 40.00 appointment booked by the owner, each at its own time; `timezone` the client's. */
  async function book(attributes: Record<string, unknown> = {}, owner = api) {
    const res = await owner.post('/appointments?admin=true', {
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T${String(hour++ % 24).padStart(2, '0')}:00`,
      ...attributes,
    });
    if (res.status !== 200) throw new Error(`booking → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as AppointmentBody;
  }

  const pay = (id: number, body: unknown, owner = api) =>
    owner.post(`/appointments/${id}/payments`, body);

  async function paid(id: number) {
    const { body } = await api.get(`/appointments/${id}`);
    return { paid: body.paid as string, amountPaid: body.amountPaid as string };
  }

  const changedEvents = async (id: number) =>
    (await outboxEvents(db, 'appointment.changed', 'appointmentId', id)).length;

  it('lists none for a new appointment', async () => {
    const a = await book();
    expect(await api.get(`/appointments/${a.id}/payments`)).toMatchObject({
      status: 200,
      body: [],
    });
    expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '0.00' });
  });

  it('records payments: partial is "no", covered is "yes", a refund takes it back', async () => {
    const a = await book({ timezone: 'Europe/Paris' });
    const first = await pay(a.id, { amount: '15.00', processor: 'cash', transactionID: 'r-1' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      transactionID: 'r-1',
      created: expect.stringMatching(API_DATETIME),
      processor: 'cash',
      amount: '15.00',
      reason: '',
    });
    // In the zone the appointment is shown in (the client's: Paris, +0200 in June or +0100).
    expect(first.body.created).toMatch(/\+0[12]00$/);
    expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '15.00' });

    const rest = await pay(a.id, { amount: 25, processor: 'card-terminal', transactionID: 'r-2' });
    expect(rest.body).toMatchObject({ transactionID: 'r-2', amount: '25.00' });
    expect(await paid(a.id)).toEqual({ paid: 'yes', amountPaid: '40.00' });

    const refund = await pay(a.id, {
      amount: '-10.00',
      processor: 'card-terminal',
      transactionID: 'r-3',
      reason: 'Session cut short',
    });
    expect(refund.body).toMatchObject({ amount: '-10.00', reason: 'Session cut short' });
    expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '30.00' });

    const list = await api.get(`/appointments/${a.id}/payments`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([first.body, rest.body, refund.body]);
    expect(await changedEvents(a.id)).toBe(3); // one a payment (the booking records `scheduled`)
  });

  it('pays what is sold after a coupon: priceSold, not price', async () => {
    const coupon = await api.post('/coupons', {
      code: 'HALF',
      name: 'Half price',
      discountType: 'percentage',
      discountAmount: 50,
      appointmentTypeIDs: [type],
    });
    expect(coupon.status).toBe(200);
    const a = await book({ certificate: 'HALF' });
    expect(a).toMatchObject({ price: '40.00', priceSold: '20.00', paid: 'no' });
    await pay(a.id, { amount: '20', processor: 'cash' });
    expect(await paid(a.id)).toEqual({ paid: 'yes', amountPaid: '20.00' });
  });

  it('reads the processor without case and makes up a transaction id when none is given', async () => {
    const a = await book();
    const one = await pay(a.id, { amount: 10.5, processor: ' CASH ' });
    const two = await pay(a.id, { amount: 10.5, processor: 'cash' });
    expect(one.body).toMatchObject({ processor: 'cash', amount: '10.50' });
    expect(one.body.transactionID).toMatch(/^pay_[0-9a-f]{24}$/);
    expect(two.body.transactionID).not.toBe(one.body.transactionID);
    expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '21.00' });
  });

  describe('idempotency on transactionID', () => {
    it('answers the payment recorded before, counting nothing and emitting nothing', async () => {
      const a = await book();
      const body = { amount: '12.34', processor: 'stripe', transactionID: 'ch_Same1' };
      const first = await pay(a.id, body);
      const events = await changedEvents(a.id);
      const again = await pay(a.id, { ...body, amount: 12.34, reason: 'retry' });
      expect(again).toMatchObject({ status: 200, body: first.body });
      expect((await api.get(`/appointments/${a.id}/payments`)).body).toEqual([first.body]);
      expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '12.34' });
      expect(await changedEvents(a.id)).toBe(events);
    });

    it('refuses the id with another amount or processor: 409 transaction_id_reused', async () => {
      const a = await book();
      await pay(a.id, { amount: '5.00', processor: 'cash', transactionID: 'ch_Twice' });
      const reused = apiError(
        409,
        'transaction_id_reused',
        'The transaction "ch_Twice" is already recorded on this appointment with another amount or processor.',
      );
      expect(
        await pay(a.id, { amount: '6.00', processor: 'cash', transactionID: 'ch_Twice' }),
      ).toMatchObject(reused);
      expect(
        await pay(a.id, { amount: '5.00', processor: 'check', transactionID: 'ch_Twice' }),
      ).toMatchObject(reused);
      expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '5.00' });
    });

    it('refuses an id recorded on another appointment of the account; compares byte for byte', async () => {
      const a = await book();
      const b = await book();
      await pay(a.id, { amount: '5.00', processor: 'cash', transactionID: 'ch_Moved' });
      expect(
        await pay(b.id, { amount: '5.00', processor: 'cash', transactionID: 'ch_Moved' }),
      ).toMatchObject(
        apiError(
          409,
          'transaction_id_reused',
          `The transaction "ch_Moved" is already recorded on appointment "${a.id}".`,
        ),
      );
      // Another case is another charge; another account has ids of its own.
      expect(
        await pay(b.id, { amount: '5.00', processor: 'cash', transactionID: 'ch_moved' }),
      ).toMatchObject({ status: 200 });
    });
  });

  describe('refunds', () => {
    it('needs a reason and never takes back more than was paid', async () => {
      const a = await book();
      await pay(a.id, { amount: '30.00', processor: 'cash' });
      expect(await pay(a.id, { amount: '-5.00', processor: 'cash' })).toMatchObject(
        apiError(
          400,
          'required_reason',
          'Attribute "reason" is required for a refund (a negative amount).',
        ),
      );
      expect(await pay(a.id, { amount: -5, processor: 'cash', reason: '  ' })).toMatchObject(
        apiError(
          400,
          'required_reason',
          'Attribute "reason" is required for a refund (a negative amount).',
        ),
      );
      expect(
        await pay(a.id, { amount: '-30.01', processor: 'cash', reason: 'Oops' }),
      ).toMatchObject(
        apiError(400, 'refund_exceeds_paid', 'The refund of 30.01 is more than the 30.00 paid.'),
      );
      expect(
        await pay(a.id, { amount: '-30', processor: 'cash', reason: 'All back' }),
      ).toMatchObject({ status: 200, body: { amount: '-30.00', reason: 'All back' } });
      expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '0.00' });
    });

    it('keeps the amount paid within 9999999.99', async () => {
      const a = await book();
      await pay(a.id, { amount: '9999999.99', processor: 'external' });
      expect(await pay(a.id, { amount: '0.01', processor: 'external' })).toMatchObject(
        apiError(400, 'invalid_amount', 'The amount paid would be more than 9999999.99.'),
      );
    });
  });

  describe('canceled appointments', () => {
    it('take refunds, not payments; a payment sent again is still answered', async () => {
      const a = await book();
      const before = await pay(a.id, { amount: '40', processor: 'cash', transactionID: 'c-1' });
      expect((await api.put(`/appointments/${a.id}/cancel?admin=true`, {})).status).toBe(200);
      expect(await pay(a.id, { amount: '1.00', processor: 'cash' })).toMatchObject(
        apiError(
          400,
          'appointment_canceled',
          `The appointment "${a.id}" is canceled: only a refund (a negative amount) can be recorded.`,
        ),
      );
      expect(
        await pay(a.id, { amount: '40', processor: 'cash', transactionID: 'c-1' }),
      ).toMatchObject({ status: 200, body: before.body });
      expect(
        await pay(a.id, { amount: '-40', processor: 'cash', reason: 'Canceled by the shop' }),
      ).toMatchObject({ status: 200, body: { amount: '-40.00' } });
      expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '0.00' });
    });
  });

  describe('validation', () => {
    const AMOUNT =
      'Attribute "amount" must be an amount of money other than 0 with at most two decimals, ' +
      'from -9999999.99 to 9999999.99 (a refund is negative).';
    const PROCESSOR =
      'Attribute "processor" must be one of cash, check, card-terminal, bank-transfer, external, ' +
      'stripe, square, paypal, paypal_pro, braintree, authorizenet.';
    const TRANSACTION = 'Attribute "transactionID" must be 1 to 255 visible ASCII characters.';
    const ok = { amount: '10.00', processor: 'cash' };

    it.each([
      [{ processor: 'cash' }, 'required_amount', 'Attribute "amount" is required.'],
      [{ ...ok, amount: null }, 'required_amount', 'Attribute "amount" is required.'],
      [{ ...ok, amount: 0 }, 'invalid_amount', AMOUNT],
      [{ ...ok, amount: '-0.00' }, 'invalid_amount', AMOUNT],
      [{ ...ok, amount: '10.555' }, 'invalid_amount', AMOUNT],
      [{ ...ok, amount: '1e3' }, 'invalid_amount', AMOUNT],
      [{ ...ok, amount: '10000000.00' }, 'invalid_amount', AMOUNT],
      [{ ...ok, amount: -10_000_000 }, 'invalid_amount', AMOUNT],
      [{ ...ok, amount: true }, 'invalid_amount', AMOUNT],
      [{ amount: '10' }, 'required_processor', 'Attribute "processor" is required.'],
      [{ ...ok, processor: 'bitcoin' }, 'invalid_processor', PROCESSOR],
      [{ ...ok, processor: 7 }, 'invalid_processor', 'Invalid "processor" attribute value.'],
      [{ ...ok, transactionID: '' }, 'invalid_transaction_id', TRANSACTION],
      [{ ...ok, transactionID: 'with space' }, 'invalid_transaction_id', TRANSACTION],
      [{ ...ok, transactionID: 'é' }, 'invalid_transaction_id', TRANSACTION],
      [{ ...ok, transactionID: 'x'.repeat(256) }, 'invalid_transaction_id', TRANSACTION],
      [
        { ...ok, transactionID: 12 },
        'invalid_transaction_id',
        'Invalid "transactionID" attribute value.',
      ],
      [{ ...ok, reason: 'x'.repeat(1001) }, 'invalid_reason', 'Invalid "reason" attribute value.'],
      [{ ...ok, reason: 5 }, 'invalid_reason', 'Invalid "reason" attribute value.'],
    ])('%j → 400 %s', async (body, error, message) => {
      const a = await book();
      expect(await pay(a.id, body)).toMatchObject(apiError(400, error, message));
      expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '0.00' });
    });

    it('wants a JSON object, sent as JSON', async () => {
      const a = await book();
      expect(await pay(a.id, [ok])).toMatchObject(
        apiError(400, 'bad_request', 'Expected a JSON object.'),
      );
      const form = await app.inject({
        method: 'POST',
        url: `/api/v1/appointments/${a.id}/payments`,
        headers: {
          authorization: owner.authorization,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'amount=10&processor=cash',
      });
      expect({ status: form.statusCode, body: form.json() }).toEqual(
        apiError(
          415,
          'unsupported_media_type',
          'Content-Type "application/x-www-form-urlencoded" is not supported; send "application/json".',
        ),
      );
    });
  });

  describe('tenants', () => {
    it("another account's appointment is 403, an id that exists nowhere 404", async () => {
      const a = await book();
      for (const res of [
        await stranger.get(`/appointments/${a.id}/payments`),
        await pay(a.id, ok(), stranger),
      ])
        expect(res).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
      for (const res of [
        await api.get('/appointments/2147483000/payments'),
        await pay(2147483000, ok()),
      ])
        expect(res).toMatchObject(apiError(404, 'not_found', 'Not Found'));
      expect(await paid(a.id)).toEqual({ paid: 'no', amountPaid: '0.00' });
      expect(await stranger.get(`/appointments/${a.id}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
    });

    it('a partner app (OAuth Bearer) reads and records them as the owner does', async () => {
      const person = await ownerAccount(app);
      const partner = apiClient(app, {
        ...person,
        authorization: bearer(await accessToken(app, await registerClient(app), person)),
      });
      const basic = apiClient(app, person);
      const room = await createCalendar(basic, { timezone: 'America/New_York' });
      const service = await createAppointmentType(basic, { price: '25.00', calendarIDs: [room] });
      const booked = await partner.post('/appointments?admin=true', {
        ...client,
        appointmentTypeID: service,
        calendarID: room,
        datetime: `${MONDAY}T10:00`,
      });
      expect(booked.status).toBe(200);
      const id = (booked.body as AppointmentBody).id;
      const recorded = await pay(id, { amount: '25.00', processor: 'square' }, partner);
      expect(recorded).toMatchObject({ status: 200, body: { amount: '25.00' } });
      expect((await partner.get(`/appointments/${id}/payments`)).body).toEqual([recorded.body]);
      expect((await basic.get(`/appointments/${id}`)).body).toMatchObject({
        paid: 'yes',
        amountPaid: '25.00',
      });
      // The other account's partner is a stranger here.
      expect(await pay(id, ok(), stranger)).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
    });

    function ok() {
      return { amount: '1.00', processor: 'cash' };
    }
  });

  it('counts every one of a storm of parallel payments, and each transaction id once', async () => {
    const a = await book();
    const distinct = 30;
    // Each id sent twice at once, and a few refunds among them after a first payment.
    await pay(a.id, { amount: '100.00', processor: 'cash', transactionID: 'storm-0' });
    const bodies = Array.from({ length: distinct }, (_, i) => ({
      amount: i % 5 === 0 ? '-1.00' : `${i}.${String(i).padStart(2, '0')}`,
      processor: 'card-terminal',
      transactionID: `storm-${i + 1}`,
      reason: 'storm',
    }));
    const results = await Promise.all([...bodies, ...bodies].map((body) => pay(a.id, body)));
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const expected = 10000 + bodies.reduce((sum, b) => sum + Math.round(Number(b.amount) * 100), 0);
    const [row] = await db.query<{ column: number; ledger: string; n: number | string }[]>(
      'SELECT a.amount_paid_cents AS `column`, ' +
        '(SELECT SUM(amount_cents) FROM payments WHERE appointment_id = a.id) AS ledger, ' +
        '(SELECT COUNT(*) FROM payments WHERE appointment_id = a.id) AS n ' +
        'FROM appointments a WHERE a.id = ?',
      [a.id],
    );
    expect({ column: Number(row.column), ledger: Number(row.ledger), n: Number(row.n) }).toEqual({
      column: expected,
      ledger: expected,
      n: distinct + 1,
    });
    expect(await changedEvents(a.id)).toBe(distinct + 1);
    // Each pair answered one payment: the same body twice.
    for (let i = 0; i < distinct; i++) expect(results[i].body).toEqual(results[distinct + i].body);
  });
});

/**
 * The webhook a payment sends, end to end: the API records `appointment.changed` in the outbox, a
 * worker (in-process, on a queue prefix of this file's own, so that no other test's worker takes
 * its jobs) delivers it to a real receiver on 127.0.0.1.
 */
describe('Appointment payments: the appointment.changed webhook (e2e)', () => {
  let app: NestFastifyApplication;
  let worker: TestingModule;
  let receiver: Receiver;

  beforeAll(async () => {
    const base = testConfig();
    const config = base.with({ queue: { prefix: `${base.queue.prefix}:payments` } });
    app = await startApi({ config });
    worker = await startWorker(config);
    receiver = await Receiver.start();
  });

  afterAll(async () => {
    await worker?.close();
    await app?.close();
    await receiver?.close();
  });

  it('a payment and a refund each send `changed`, signed; a transaction id sent again sends none', async () => {
    const account = await createAccount(app);
    const api = apiClient(app, account);
    const calendar = await createCalendar(api, { timezone: 'America/New_York' });
    const type = await createAppointmentType(api, { price: '30.00', calendarIDs: [calendar] });
    const path = `/changed-${account.id}`;
    expect(
      await api.post('/webhooks', { event: 'appointment.changed', target: receiver.url(path) }),
    ).toMatchObject({ status: 200 });
    const booked = await api.post('/appointments?admin=true', {
      ...client,
      appointmentTypeID: type,
      calendarID: calendar,
      datetime: `${MONDAY}T09:00`,
    });
    const a = booked.body as AppointmentBody;

    const payment = { amount: '30.00', processor: 'card-terminal', transactionID: 'wh-1' };
    expect((await api.post(`/appointments/${a.id}/payments`, payment)).status).toBe(200);
    expect((await api.post(`/appointments/${a.id}/payments`, payment)).status).toBe(200);
    const refund = { amount: '-5.00', processor: 'card-terminal', reason: 'Late start' };
    expect((await api.post(`/appointments/${a.id}/payments`, refund)).status).toBe(200);

    // The booking's `changed`, the payment's and the refund's; the payment sent again adds none.
    await eventually(() => (receiver.received(path).length >= 3 ? true : undefined));
    await new Promise((r) => setTimeout(r, 400)); // room for a fourth, which must not come
    const requests = receiver.received(path);
    const body = `action=changed&id=${a.id}&calendarID=${calendar}&appointmentTypeID=${type}`;
    expect(requests.map((r) => ({ method: r.method, body: r.body }))).toEqual(
      [1, 2, 3].map(() => ({ method: 'POST', body })),
    );
    for (const request of requests) {
      expect(header(request, 'content-type')).toBe('application/x-www-form-urlencoded');
      expect(signatureProblem(request, account.apiKey)).toBeNull();
    }
    // One delivery for each change recorded: the booking (its `scheduled` row, delivered as
    // `changed` too) and the two payments (`changed`).
    const dataSource = app.get(DataSource);
    const events = [
      ...(await outboxEvents(dataSource, 'appointment.scheduled', 'appointmentId', a.id)),
      ...(await outboxEvents(dataSource, 'appointment.changed', 'appointmentId', a.id)),
    ];
    expect(
      requests.map((r) => /^msg_(\d+)_\d+$/.exec(header(r, 'webhook-id') ?? '')?.[1]).sort(),
    ).toEqual(events.sort());
    // What the receiver then reads: the appointment as paid, and its payments.
    expect((await api.get(`/appointments/${a.id}`)).body).toMatchObject({
      paid: 'no',
      amountPaid: '25.00',
    });
  });
});
