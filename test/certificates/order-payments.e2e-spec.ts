import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { outboxEvents } from '../support/outbox-events';
import { createAccount, startApi } from '../support/test-app';

/** A zone with a half-hour offset and no DST: payment times show `+0530`. */
const ZONE = 'Asia/Kolkata';
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0530$/;

/**
 * Payments of orders: the same ledger as appointments', and the order's `status` following it by
 * the same rule (`paid` once covered, `unpaid` again below), completing the order the first time.
 */
describe('Order payments: GET and POST /orders/{id}/payments (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let api: ApiClient;
  let stranger: ApiClient;
  let gift: number;
  let free: number;

  const buyer = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' };

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    api = apiClient(app, await createAccount(app, { timezone: ZONE }));
    stranger = apiClient(app, await createAccount(app));
    gift = (await api.post('/products', { name: 'Gift card', price: '50.00', type: 'gift' })).body
      .id as number;
    free = (await api.post('/products', { name: 'Sample', price: 0, type: 'gift' })).body
      .id as number;
  });

  afterAll(() => app.close());

  async function order(productID = gift): Promise<number> {
    const res = await api.post('/orders', { productID, ...buyer });
    if (res.status !== 200) throw new Error(`POST /orders → ${res.status}`);
    return res.body.id as number;
  }

  const pay = (id: number, body: unknown, owner = api) =>
    owner.post(`/orders/${id}/payments`, body);

  async function state(id: number) {
    const { body } = await api.get(`/orders/${id}`);
    return { status: body.status as string, certificates: (body.certificates as string[]).length };
  }

  const completedEvents = async (id: number) =>
    (await outboxEvents(db, 'order.completed', 'orderId', id)).length;

  it('follows the ledger: partial unpaid, covered paid (completed once), refunded unpaid', async () => {
    const id = await order();
    expect(await api.get(`/orders/${id}/payments`)).toMatchObject({ status: 200, body: [] });

    const first = await pay(id, { amount: '20.00', processor: 'cash', transactionID: 'o-1' });
    expect(first).toEqual({
      status: 200,
      headers: expect.anything(),
      body: {
        transactionID: 'o-1',
        created: expect.stringMatching(TIME),
        processor: 'cash',
        amount: '20.00',
        reason: '',
      },
    });
    expect(await state(id)).toEqual({ status: 'unpaid', certificates: 0 });

    const rest = await pay(id, { amount: '30.00', processor: 'card-terminal' });
    expect(await state(id)).toEqual({ status: 'paid', certificates: 1 });
    expect(await completedEvents(id)).toBe(1);

    const refund = await pay(id, { amount: '-50.00', processor: 'cash', reason: 'Returned' });
    expect(await state(id)).toEqual({ status: 'unpaid', certificates: 1 });
    // Paid again: paid, and nothing issued or announced a second time.
    const again = await pay(id, { amount: '50.00', processor: 'cash' });
    expect(await state(id)).toEqual({ status: 'paid', certificates: 1 });
    expect(await completedEvents(id)).toBe(1);

    expect((await api.get(`/orders/${id}/payments`)).body).toEqual([
      first.body,
      rest.body,
      refund.body,
      again.body,
    ]);
  });

  it('PUT /orders/{id}/complete records what is still due as one `external` payment', async () => {
    const id = await order();
    await pay(id, { amount: '12.50', processor: 'cash' });
    expect(await api.put(`/orders/${id}/complete`)).toMatchObject({
      status: 200,
      body: { status: 'paid' },
    });
    expect(await api.put(`/orders/${id}/complete`)).toMatchObject({ status: 200 });
    const { body } = await api.get(`/orders/${id}/payments`);
    expect(body).toEqual([
      expect.objectContaining({ amount: '12.50', processor: 'cash' }),
      {
        transactionID: expect.stringMatching(/^pay_[0-9a-f]{24}$/),
        created: expect.stringMatching(TIME),
        processor: 'external',
        amount: '37.50',
        reason: 'Completed with PUT /orders/{id}/complete',
      },
    ]);
    expect(await completedEvents(id)).toBe(1);
  });

  it('a free order keeps its status; complete records nothing for it', async () => {
    const id = await order(free);
    expect((await api.put(`/orders/${id}/complete`)).body).toMatchObject({ status: 'paid' });
    expect((await api.get(`/orders/${id}/payments`)).body).toEqual([]);
    await pay(id, { amount: '5.00', processor: 'cash' });
    await pay(id, { amount: '-5.00', processor: 'cash', reason: 'Tip returned' });
    expect(await state(id)).toEqual({ status: 'paid', certificates: 1 });
  });

  it('shares the rules of appointment payments: refunds, idempotency, one id per account', async () => {
    const id = await order();
    expect(await pay(id, { amount: '-1.00', processor: 'cash', reason: 'x' })).toMatchObject(
      apiError(400, 'refund_exceeds_paid', 'The refund of 1.00 is more than the 0.00 paid.'),
    );
    const body = { amount: '10.00', processor: 'cash', transactionID: 'o-same' };
    const first = await pay(id, body);
    expect(await pay(id, body)).toMatchObject({ status: 200, body: first.body });
    expect(await pay(id, { ...body, amount: '11.00' })).toMatchObject(
      apiError(
        409,
        'transaction_id_reused',
        'The transaction "o-same" is already recorded on this order with another amount or processor.',
      ),
    );
    const other = await order();
    expect(await pay(other, body)).toMatchObject(
      apiError(
        409,
        'transaction_id_reused',
        `The transaction "o-same" is already recorded on order "${id}".`,
      ),
    );
    expect((await api.get(`/orders/${id}/payments`)).body).toEqual([first.body]);
  });

  it("another account's order is 403, an id that exists nowhere 404", async () => {
    const id = await order();
    const ok = { amount: '1.00', processor: 'cash' };
    expect(await stranger.get(`/orders/${id}/payments`)).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await pay(id, ok, stranger)).toMatchObject(apiError(403, 'forbidden', 'Forbidden'));
    expect(await api.get('/orders/2147483000/payments')).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await pay(2147483000, ok)).toMatchObject(apiError(404, 'not_found', 'Not Found'));
    expect(await state(id)).toEqual({ status: 'unpaid', certificates: 0 });
  });

  it('counts a storm of parallel payments of one order exactly, completing it once', async () => {
    const id = await order();
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        pay(id, { amount: '4.00', processor: 'cash', transactionID: `os-${i % 20}` }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const [row] = await db.query<{ paid: string; n: number | string }[]>(
      'SELECT SUM(amount_cents) AS paid, COUNT(*) AS n FROM payments WHERE order_id = ?',
      [id],
    );
    expect({ paid: Number(row.paid), n: Number(row.n) }).toEqual({ paid: 8000, n: 20 });
    expect(await state(id)).toEqual({ status: 'paid', certificates: 1 });
    expect(await completedEvents(id)).toBe(1);
  });
});
