import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { OutboxRecord } from '../../src/common/outbox/outbox-record.entity';
import { Certificate } from '../../src/modules/certificates/certificate.entity';
import type { CertificateView } from '../../src/modules/certificates/certificate.view';
import { Order } from '../../src/modules/certificates/order.entity';
import type { OrderView } from '../../src/modules/certificates/order.view';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAppointmentType } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/** A zone with a half-hour offset and no DST: the order time shows `+0530`. */
const ZONE = 'Asia/Kolkata';
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0530$/;
const GENERATED = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{12}$/;
const MISSING = 999_999_999;

/** Creates through the API; fails loudly when refused. */
async function created(api: ApiClient, path: string, body: unknown): Promise<number> {
  const res = await api.post(path, body);
  if (res.status !== 200)
    throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

describe('Orders: /orders (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let accountId: number;
  let api: ApiClient;
  let other: ApiClient;
  let haircut: number;
  let shave: number;
  /** Package: 3 haircuts and 2 shaves, expiring 30 days after issue. */
  let pack: number;
  let gift: number;
  let othersProduct: number;

  const buyer = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' };

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    const account = await createAccount(app, { timezone: ZONE });
    accountId = account.id;
    api = apiClient(app, account);
    other = apiClient(app, await createAccount(app));
    haircut = await createAppointmentType(api, { name: 'Haircut' });
    shave = await createAppointmentType(api, { name: 'Shave' });
    pack = await created(api, '/products', {
      name: 'Five visits',
      price: 120,
      type: 'appointments',
      expires: 30,
      appointmentTypeCounts: { [haircut]: 3, [shave]: 2 },
    });
    gift = await created(api, '/products', { name: 'Gift card', price: '75.5', type: 'gift' });
    othersProduct = await created(other, '/products', { name: 'Theirs', price: 1, type: 'gift' });
  });

  afterAll(() => app.close());

  const orderCount = () => db.manager.countBy(Order, { accountId });

  async function place(body: object = {}, client: ApiClient = api): Promise<OrderView> {
    const res = await client.post('/orders', { productID: pack, ...buyer, ...body });
    if (res.status !== 200)
      throw new Error(`POST /orders → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as OrderView;
  }

  async function issuedFor(orderId: number): Promise<CertificateView[]> {
    const res = await api.get(`/certificates?orderID=${orderId}`);
    expect(res.status).toBe(200);
    return res.body as CertificateView[];
  }

  /** The `order.completed` events the outbox holds for the order. */
  async function completedEvents(orderId: number): Promise<OutboxRecord[]> {
    const rows = await db.manager.findBy(OutboxRecord, { type: 'order.completed', accountId });
    return rows.filter((row) => row.payload.orderId === orderId);
  }

  describe('POST /orders', () => {
    it('places an unpaid order, timed in the account zone', async () => {
      const before = Date.now();
      const res = await api.post('/orders', {
        productID: pack,
        firstName: ' Ann ',
        lastName: 'Lee',
        email: 'Ann@Example.com',
        phone: '555-0100',
      });
      const after = Date.now();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        total: '120.00',
        status: 'unpaid',
        time: expect.stringMatching(TIME),
        firstName: 'Ann',
        lastName: 'Lee',
        phone: '555-0100',
        email: 'ann@example.com',
        title: 'Five visits',
        notes: '',
        productID: pack,
        certificates: [],
      });
      const time = DateTime.fromFormat(res.body.time as string, "yyyy-MM-dd'T'HH:mm:ssZZZ");
      expect(time.toMillis()).toBeGreaterThanOrEqual(before - 1000);
      expect(time.toMillis()).toBeLessThanOrEqual(after);

      expect(await api.get(`/orders/${res.body.id}`)).toMatchObject({
        status: 200,
        body: res.body as object,
      });
      // Unpaid: nothing issued, nothing announced.
      expect(await issuedFor(res.body.id as number)).toEqual([]);
      expect(await completedEvents(res.body.id as number)).toEqual([]);
    });

    it('places an order of a gift without a phone', async () => {
      const res = await api.post('/orders', { productID: gift, ...buyer });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        total: '75.50',
        status: 'unpaid',
        time: expect.stringMatching(TIME),
        ...buyer,
        phone: '',
        title: 'Gift card',
        notes: '',
        productID: gift,
        certificates: [],
      });
    });

    describe('refuses an order that is not valid, writing nothing', () => {
      it.each<[string, () => object, number, string, string]>([
        [
          'no product',
          () => ({ ...buyer }),
          400,
          'required_product_id',
          'The parameter "productID" is required.',
        ],
        [
          'a product id that is no number',
          () => ({ ...buyer, productID: 'abc' }),
          400,
          'invalid_product_id',
          'Invalid "productID" attribute value.',
        ],
        [
          'no first name',
          () => ({ ...buyer, productID: pack, firstName: undefined }),
          400,
          'required_first_name',
          'Attribute "firstName" is required.',
        ],
        [
          'a blank first name',
          () => ({ ...buyer, productID: pack, firstName: '  ' }),
          400,
          'required_first_name',
          'Attribute "firstName" is required.',
        ],
        [
          'no last name',
          () => ({ ...buyer, productID: pack, lastName: undefined }),
          400,
          'required_last_name',
          'Attribute "lastName" is required.',
        ],
        [
          'no e-mail',
          () => ({ ...buyer, productID: pack, email: undefined }),
          400,
          'required_email',
          'Attribute "email" is required.',
        ],
        [
          'a blank e-mail',
          () => ({ ...buyer, productID: pack, email: ' ' }),
          400,
          'required_email',
          'Attribute "email" is required.',
        ],
        [
          'an e-mail that is no e-mail',
          () => ({ ...buyer, productID: pack, email: 'not-an-email' }),
          400,
          'invalid_email',
          'Invalid "email" attribute value.',
        ],
        [
          'an unknown product',
          () => ({ ...buyer, productID: MISSING }),
          400,
          'invalid_product',
          `The product "${MISSING}" does not exist.`,
        ],
        [
          "another account's product",
          () => ({ ...buyer, productID: othersProduct }),
          403,
          'forbidden',
          'Forbidden',
        ],
      ])('with %s', async (_, body, status, error, message) => {
        const count = await orderCount();
        expect(await api.post('/orders', body())).toMatchObject(apiError(status, error, message));
        expect(await orderCount()).toBe(count);
      });

      it('with a deleted product', async () => {
        const id = await created(api, '/products', { name: 'Gone', price: 5, type: 'gift' });
        await api.delete(`/products/${id}`);
        const count = await orderCount();
        expect(await api.post('/orders', { ...buyer, productID: id })).toMatchObject(
          apiError(400, 'invalid_product', `The product "${id}" does not exist.`),
        );
        expect(await orderCount()).toBe(count);
      });
    });
  });

  describe('PUT /orders/{id}/complete', () => {
    it('marks it paid, issues the package for the buyer and records order.completed', async () => {
      const placed = await place({ email: 'Buyer@Example.com' });
      const res = await api.put(`/orders/${placed.id}/complete`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...placed,
        status: 'paid',
        certificates: [expect.stringMatching(GENERATED)],
      });
      expect(await api.get(`/orders/${placed.id}`)).toMatchObject({
        status: 200,
        body: res.body as object,
      });

      const issued = await issuedFor(placed.id);
      expect(issued).toEqual([
        {
          id: expect.any(Number),
          certificate: res.body.certificates[0],
          productID: pack,
          orderID: placed.id,
          couponID: null,
          appointmentTypeIDs: [haircut, shave],
          name: 'Five visits',
          email: 'buyer@example.com',
          type: 'package',
          remainingCounts: { [haircut]: 3, [shave]: 2 },
          remainingValue: null,
          expiration: DateTime.now().setZone(ZONE).plus({ days: 30 }).toISODate(),
          discountType: null,
          discountAmount: null,
        },
      ]);

      const events = await completedEvents(placed.id);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ accountId, type: 'order.completed' });
      expect(events[0].payload).toEqual({
        orderId: placed.id,
        productId: pack,
        certificateIds: [issued[0].id],
      });
    });

    it('issues a gift certificate worth the price for a gift order', async () => {
      const placed = await place({ productID: gift });
      const res = await api.put(`/orders/${placed.id}/complete`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...placed,
        status: 'paid',
        certificates: [expect.stringMatching(GENERATED)],
      });
      const issued = await issuedFor(placed.id);
      expect(issued).toEqual([
        {
          id: expect.any(Number),
          certificate: res.body.certificates[0],
          productID: gift,
          orderID: placed.id,
          couponID: null,
          appointmentTypeIDs: [],
          name: 'Gift card',
          email: 'ann@example.com',
          type: 'gift',
          remainingCounts: null,
          remainingValue: '75.50',
          expiration: null,
          discountType: null,
          discountAmount: null,
        },
      ]);
      expect((await completedEvents(placed.id)).map((e) => e.payload)).toEqual([
        { orderId: placed.id, productId: gift, certificateIds: [issued[0].id] },
      ]);
    });

    it('changes nothing when completed again', async () => {
      const placed = await place();
      const first = await api.put(`/orders/${placed.id}/complete`);
      expect(first.status).toBe(200);
      for (let i = 0; i < 2; i++)
        expect(await api.put(`/orders/${placed.id}/complete`)).toMatchObject({
          status: 200,
          body: first.body as object,
        });
      expect(await issuedFor(placed.id)).toHaveLength(1);
      expect(await db.manager.countBy(Certificate, { orderId: placed.id })).toBe(1);
      expect(await completedEvents(placed.id)).toHaveLength(1);
    });

    it('issues exactly one certificate when completed many times at once', async () => {
      const placed = await place();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => api.put(`/orders/${placed.id}/complete`)),
      );
      for (const res of responses) expect(res.status).toBe(200);
      const [first] = responses;
      expect(first.body).toEqual({
        ...placed,
        status: 'paid',
        certificates: [expect.stringMatching(GENERATED)],
      });
      for (const res of responses) expect(res.body).toEqual(first.body);
      expect(await db.manager.countBy(Certificate, { orderId: placed.id })).toBe(1);
      const events = await completedEvents(placed.id);
      expect(events).toHaveLength(1);
      const [issued] = await issuedFor(placed.id);
      expect(events[0].payload).toEqual({
        orderId: placed.id,
        productId: pack,
        certificateIds: [issued.id],
      });
    });

    it('issues what was bought even when the product was deleted since', async () => {
      const product = await created(api, '/products', {
        name: 'Last one',
        price: 10,
        type: 'appointments',
        appointmentTypeCounts: { [shave]: 1 },
      });
      const placed = await place({ productID: product });
      await api.delete(`/products/${product}`);
      expect(await api.put(`/orders/${placed.id}/complete`)).toMatchObject({
        status: 200,
        body: { status: 'paid', title: 'Last one', productID: product },
      });
      expect(await issuedFor(placed.id)).toMatchObject([
        { productID: product, type: 'package', remainingCounts: { [shave]: 1 } },
      ]);
    });

    it("keeps another account's order from it", async () => {
      const placed = await place();
      expect(await other.put(`/orders/${placed.id}/complete`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      expect((await api.get(`/orders/${placed.id}`)).body).toEqual(placed);
      expect(await issuedFor(placed.id)).toEqual([]);
      expect(await completedEvents(placed.id)).toEqual([]);
    });

    it('answers 404 for an id that exists nowhere', async () => {
      expect(await api.put(`/orders/${MISSING}/complete`)).toMatchObject(
        apiError(404, 'not_found', 'Not Found'),
      );
    });
  });

  describe('GET /orders', () => {
    let own: ApiClient;
    let orders: OrderView[];

    beforeAll(async () => {
      const account = await createAccount(app, { timezone: ZONE });
      own = apiClient(app, account);
      const product = await created(own, '/products', { name: 'Card', price: 20, type: 'gift' });
      orders = [];
      for (const firstName of ['One', 'Two', 'Three'])
        orders.push(await place({ productID: product, firstName }, own));
      const completed = await own.put(`/orders/${orders[1].id}/complete`);
      orders[1] = completed.body as OrderView;
    });

    it('lists newest first, at most max', async () => {
      const [one, two, three] = orders;
      expect(two).toMatchObject({ status: 'paid', certificates: [expect.any(String)] });
      expect(await own.get('/orders')).toMatchObject({ status: 200, body: [three, two, one] });
      expect((await own.get('/orders')).body).toEqual([three, two, one]);
      expect((await own.get('/orders?max=2')).body).toEqual([three, two]);
      expect((await own.get('/orders?max=1')).body).toEqual([three]);
      expect((await own.get('/orders?max=1000')).body).toEqual([three, two, one]);
      expect((await own.get('/orders.json?max=2')).body).toEqual([three, two]);
    });

    it.each(['0', '1001', 'abc', '-1', '1.5', ''])('refuses max=%s', async (max) => {
      expect(await own.get(`/orders?max=${max}`)).toMatchObject(
        apiError(400, 'invalid_max', 'Invalid "max" attribute value.'),
      );
    });

    it("shows none of another account's orders", async () => {
      const stranger = apiClient(app, await createAccount(app));
      expect(await stranger.get('/orders')).toMatchObject({ status: 200, body: [] });
    });
  });

  describe('GET /orders/{id}', () => {
    it('reads the order', async () => {
      const placed = await place();
      expect(await api.get(`/orders/${placed.id}`)).toMatchObject({ status: 200, body: placed });
      expect((await api.get(`/orders/${placed.id}`)).body).toEqual(placed);
    });

    it("keeps another account's order from it", async () => {
      const placed = await place();
      expect(await other.get(`/orders/${placed.id}`)).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
    });

    it('answers 404 for an id that exists nowhere', async () => {
      expect(await api.get(`/orders/${MISSING}`)).toMatchObject(
        apiError(404, 'not_found', 'Not Found'),
      );
    });
  });
});
