import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DateTime } from 'luxon';
import { DataSource } from 'typeorm';
import { Certificate } from '../../src/modules/certificates/certificate.entity';
import type { CertificateView } from '../../src/modules/certificates/certificate.view';
import { type ApiClient, type ApiResponse, apiClient, apiError } from '../support/api-client';
import { createAppointmentType } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

/** Far from UTC: "today" there is another day than in UTC for 14 hours of every day. */
const ZONE = 'Pacific/Kiritimati';
/** 12 characters of the alphabet without 0/O, 1/I/L. */
const GENERATED = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{12}$/;
const CODE_SHAPE = 'Attribute "certificate" must be 3 to 40 letters, digits, "-" or "_".';
const MISSING = 999_999_999;

let codes = 0;
/** A code no other test of the run uses (codes are unique per account, deleted ones included). */
function freshCode(prefix = 'CERT'): string {
  codes += 1;
  return `${prefix}-${codes}-${Date.now()}`;
}

/** A day in the account's zone, `days` from today there. */
function day(days: number): string {
  return DateTime.now().setZone(ZONE).plus({ days }).toISODate()!;
}

/** Creates through the API; fails loudly when refused. */
async function created(api: ApiClient, path: string, body: unknown): Promise<number> {
  const res = await api.post(path, body);
  if (res.status !== 200)
    throw new Error(`POST ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

describe('Certificates: /certificates (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let accountId: number;
  let api: ApiClient;
  let other: ApiClient;
  let haircut: number;
  let shave: number;
  /** A type no package or coupon of the account is for. */
  let color: number;
  /** Package: 3 haircuts and 2 shaves, expiring 30 days after issue. */
  let pack: number;
  /** Package without expiration: 1 haircut. */
  let openPack: number;
  let gift: number;
  let othersProduct: number;
  /** Coupon with its own code, for haircuts, until 2099-12-31. */
  let coupon: { id: number; code: string };
  /** Codeless coupon for every type, without expiration. */
  let welcome: number;
  let othersCoupon: number;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    const account = await createAccount(app, { timezone: ZONE });
    accountId = account.id;
    api = apiClient(app, account);
    other = apiClient(app, await createAccount(app));
    haircut = await createAppointmentType(api, { name: 'Haircut' });
    shave = await createAppointmentType(api, { name: 'Shave' });
    color = await createAppointmentType(api, { name: 'Color' });
    pack = await created(api, '/products', {
      name: 'Five visits',
      price: 120,
      type: 'appointments',
      expires: 30,
      appointmentTypeCounts: { [haircut]: 3, [shave]: 2 },
    });
    openPack = await created(api, '/products', {
      name: 'One haircut',
      price: 25,
      type: 'appointments',
      appointmentTypeCounts: { [haircut]: 1 },
    });
    gift = await created(api, '/products', { name: 'Gift card', price: '75.5', type: 'gift' });
    othersProduct = await created(other, '/products', { name: 'Theirs', price: 1, type: 'gift' });
    const couponCode = freshCode('SPRING');
    coupon = {
      id: await created(api, '/coupons', {
        code: couponCode,
        name: 'Spring sale',
        discountType: 'percentage',
        discountAmount: 20,
        appointmentTypeIDs: [haircut],
        expiration: '2099-12-31',
      }),
      code: couponCode,
    };
    welcome = await created(api, '/coupons', {
      name: 'Welcome',
      discountType: 'price',
      discountAmount: 5,
    });
    othersCoupon = await created(other, '/coupons', {
      name: 'Theirs',
      discountType: 'price',
      discountAmount: 1,
    });
  });

  afterAll(() => app.close());

  const certificateCount = () => db.manager.countBy(Certificate, { accountId });

  async function issue(body: object, client: ApiClient = api): Promise<CertificateView> {
    const res = await client.post('/certificates', body);
    if (res.status !== 200)
      throw new Error(`POST /certificates → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as CertificateView;
  }

  const packageView = (overrides: Partial<Record<keyof CertificateView, unknown>> = {}) => ({
    id: expect.any(Number),
    certificate: expect.stringMatching(GENERATED),
    productID: pack,
    orderID: null,
    couponID: null,
    appointmentTypeIDs: [haircut, shave],
    name: 'Five visits',
    email: null,
    type: 'package',
    remainingCounts: { [haircut]: 3, [shave]: 2 },
    remainingValue: null,
    expiration: day(30),
    discountType: null,
    discountAmount: null,
    ...overrides,
  });

  const check = (code: string, appointmentTypeId: number, email?: string) =>
    api.get(
      `/certificates/check?${new URLSearchParams({
        certificate: code,
        appointmentTypeID: String(appointmentTypeId),
        ...(email === undefined ? {} : { email }),
      }).toString()}`,
    );

  const setExpiration = (id: number, date: string) =>
    db.query('UPDATE certificates SET expiration = ? WHERE id = ?', [date, id]);

  const setRemaining = (id: number, typeId: number, remaining: number) =>
    db.query(
      'UPDATE certificate_uses SET remaining = ? WHERE certificate_id = ? AND appointment_type_id = ?',
      [remaining, id, typeId],
    );

  describe('POST /certificates', () => {
    it('issues a package with a generated code, expiring in the product days in the account zone', async () => {
      const res = await api.post('/certificates', { productID: pack });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(packageView());
      expect(await api.get(`/certificates/${res.body.id}`)).toMatchObject({
        status: 200,
        body: res.body as object,
      });
      // Drawn at random: another one gets another code.
      const again = await issue({ productID: pack });
      expect(again.certificate).toMatch(GENERATED);
      expect(again.certificate).not.toBe(res.body.certificate);
    });

    it('keeps the owner e-mail, lower-cased', async () => {
      const res = await api.post('/certificates', { productID: pack, email: 'Ann@Example.COM' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(packageView({ email: 'ann@example.com' }));
    });

    it('issues a package without expiration when the product has none', async () => {
      const res = await api.post('/certificates', { productID: openPack });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        packageView({
          productID: openPack,
          appointmentTypeIDs: [haircut],
          name: 'One haircut',
          remainingCounts: { [haircut]: 1 },
          expiration: null,
        }),
      );
    });

    it('issues a gift certificate worth the product price, with a chosen code upper-cased', async () => {
      const code = freshCode('gift');
      const res = await api.post('/certificates', {
        productID: gift,
        email: 'bob@example.com',
        certificate: ` ${code.toLowerCase()} `,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        certificate: code.toUpperCase(),
        productID: gift,
        orderID: null,
        couponID: null,
        appointmentTypeIDs: [],
        name: 'Gift card',
        email: 'bob@example.com',
        type: 'gift',
        remainingCounts: null,
        remainingValue: '75.50',
        expiration: null,
        discountType: null,
        discountAmount: null,
      });
    });

    it('issues a package with a chosen code', async () => {
      const code = freshCode();
      const res = await api.post('/certificates', { productID: pack, certificate: code });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(packageView({ certificate: code }));
    });

    it('issues a coupon certificate carrying the coupon terms', async () => {
      const res = await api.post('/certificates', {
        couponID: coupon.id,
        email: 'cy@example.com',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: expect.any(Number),
        certificate: expect.stringMatching(GENERATED),
        productID: null,
        orderID: null,
        couponID: coupon.id,
        appointmentTypeIDs: [haircut],
        name: 'Spring sale',
        email: 'cy@example.com',
        type: 'coupon',
        remainingCounts: null,
        remainingValue: null,
        expiration: '2099-12-31',
        discountType: 'percentage',
        discountAmount: '20.00',
      });

      const code = freshCode('WELCOME');
      const open = await api.post('/certificates', { couponID: welcome, certificate: code });
      expect(open.status).toBe(200);
      expect(open.body).toEqual({
        id: expect.any(Number),
        certificate: code,
        productID: null,
        orderID: null,
        couponID: welcome,
        appointmentTypeIDs: [],
        name: 'Welcome',
        email: null,
        type: 'coupon',
        remainingCounts: null,
        remainingValue: null,
        expiration: null,
        discountType: 'price',
        discountAmount: '5.00',
      });
    });

    describe('refuses a certificate that cannot be issued, writing nothing', () => {
      it.each<[string, () => object, number, string, string]>([
        [
          'neither a product nor a coupon',
          () => ({ email: 'ann@example.com' }),
          400,
          'required_product_id',
          'Attribute "productID" or "couponID" is required.',
        ],
        [
          'both a product and a coupon',
          () => ({ productID: pack, couponID: coupon.id }),
          400,
          'invalid_coupon_id',
          'Give either "productID" or "couponID", not both.',
        ],
        [
          'a product id that is no number',
          () => ({ productID: String(pack) }),
          400,
          'invalid_product_id',
          'Invalid "productID" attribute value.',
        ],
        [
          'an unknown product',
          () => ({ productID: MISSING }),
          400,
          'invalid_product',
          `The product "${MISSING}" does not exist.`,
        ],
        [
          'an unknown coupon',
          () => ({ couponID: MISSING }),
          400,
          'invalid_coupon',
          `The coupon "${MISSING}" does not exist.`,
        ],
        [
          "another account's product",
          () => ({ productID: othersProduct }),
          403,
          'forbidden',
          'Forbidden',
        ],
        [
          "another account's coupon",
          () => ({ couponID: othersCoupon }),
          403,
          'forbidden',
          'Forbidden',
        ],
        [
          'an e-mail that is no e-mail',
          () => ({ productID: pack, email: 'not-an-email' }),
          400,
          'invalid_email',
          'Invalid "email" attribute value.',
        ],
        [
          'a numeric code',
          () => ({ productID: pack, certificate: 12345 }),
          400,
          'invalid_certificate',
          'Invalid "certificate" attribute value.',
        ],
        [
          'a short code',
          () => ({ productID: pack, certificate: 'ab' }),
          400,
          'invalid_certificate',
          CODE_SHAPE,
        ],
        [
          'a long code',
          () => ({ productID: pack, certificate: 'A'.repeat(41) }),
          400,
          'invalid_certificate',
          CODE_SHAPE,
        ],
        [
          'a code with a space',
          () => ({ productID: pack, certificate: 'TEN VISITS' }),
          400,
          'invalid_certificate',
          CODE_SHAPE,
        ],
        [
          'a code with other signs',
          () => ({ couponID: welcome, certificate: 'SALE!' }),
          400,
          'invalid_certificate',
          CODE_SHAPE,
        ],
      ])('with %s', async (_, body, status, error, message) => {
        const count = await certificateCount();
        expect(await api.post('/certificates', body())).toMatchObject(
          apiError(status, error, message),
        );
        expect(await certificateCount()).toBe(count);
      });

      it('with a deleted product', async () => {
        const id = await created(api, '/products', { name: 'Gone', price: 5, type: 'gift' });
        await api.delete(`/products/${id}`);
        const count = await certificateCount();
        expect(await api.post('/certificates', { productID: id })).toMatchObject(
          apiError(400, 'invalid_product', `The product "${id}" does not exist.`),
        );
        expect(await certificateCount()).toBe(count);
      });
    });

    describe('codes', () => {
      it("refuses another certificate's code, in any case, and a coupon's own code", async () => {
        const taken = await issue({ productID: gift, certificate: freshCode() });
        const count = await certificateCount();
        const inUse = (code: string) =>
          apiError(400, 'invalid_certificate', `The code "${code}" is already in use.`);

        for (const body of [
          { productID: pack, certificate: taken.certificate.toLowerCase() },
          { productID: gift, certificate: taken.certificate },
          { couponID: welcome, certificate: ` ${taken.certificate} ` },
        ])
          expect(await api.post('/certificates', body)).toMatchObject(inUse(taken.certificate));

        for (const body of [
          { productID: pack, certificate: coupon.code.toLowerCase() },
          { couponID: coupon.id, certificate: coupon.code },
        ])
          expect(await api.post('/certificates', body)).toMatchObject(inUse(coupon.code));

        expect(await certificateCount()).toBe(count);
      });

      it("refuses a deleted coupon's code", async () => {
        const code = freshCode('OLD');
        const id = await created(api, '/coupons', {
          code,
          name: 'Old',
          discountType: 'price',
          discountAmount: 1,
        });
        await api.delete(`/coupons/${id}`);
        expect(
          await api.post('/certificates', { productID: gift, certificate: code }),
        ).toMatchObject(
          apiError(400, 'invalid_certificate', `The code "${code}" is already in use.`),
        );
      });

      it('lets another account use the same code', async () => {
        const { certificate } = await issue({ productID: gift, certificate: freshCode() });
        expect(
          await other.post('/certificates', { productID: othersProduct, certificate }),
        ).toMatchObject({ status: 200, body: { certificate, productID: othersProduct } });
      });

      it('gives a code to exactly one of many racing creates', async () => {
        const code = freshCode();
        const count = await certificateCount();
        const responses = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            api.post('/certificates', { productID: i % 2 ? pack : gift, certificate: code }),
          ),
        );
        expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
        for (const refused of responses.filter((r) => r.status !== 200))
          expect(refused).toMatchObject(
            apiError(400, 'invalid_certificate', `The code "${code}" is already in use.`),
          );
        expect(await certificateCount()).toBe(count + 1);
      });
    });
  });

  describe('GET /certificates', () => {
    let own: ApiClient;
    let t1: number;
    let t2: number;
    let p1: number;
    let p2: number;
    let a: CertificateView;
    let b: CertificateView;
    let c: CertificateView;
    let d: CertificateView;
    let ordered: CertificateView;
    let orderId: number;

    beforeAll(async () => {
      own = apiClient(app, await createAccount(app, { timezone: ZONE }));
      t1 = await createAppointmentType(own, { name: 'Massage' });
      t2 = await createAppointmentType(own, { name: 'Facial' });
      p1 = await created(own, '/products', {
        name: 'Two massages',
        price: 90,
        type: 'appointments',
        appointmentTypeCounts: { [t1]: 2 },
      });
      p2 = await created(own, '/products', {
        name: 'One facial',
        price: 40,
        type: 'appointments',
        appointmentTypeCounts: { [t2]: 1 },
      });
      const g = await created(own, '/products', { name: 'Gift', price: 10, type: 'gift' });
      const c1 = await created(own, '/coupons', {
        name: 'Facial deal',
        discountType: 'price',
        discountAmount: 3,
        appointmentTypeIDs: [t2],
      });
      a = await issue({ productID: p1, email: 'ann@example.com' }, own);
      b = await issue({ productID: p2, email: 'bob@example.com' }, own);
      c = await issue({ productID: g }, own);
      d = await issue({ couponID: c1, email: 'ann@example.com' }, own);
      const deleted = await issue({ productID: p1, email: 'ann@example.com' }, own);
      await own.delete(`/certificates/${deleted.id}`);
      orderId = await created(own, '/orders', {
        productID: p2,
        firstName: 'Cy',
        lastName: 'Buyer',
        email: 'cy@example.com',
      });
      expect((await own.put(`/orders/${orderId}/complete`)).status).toBe(200);
      const issued = await own.get(`/certificates?orderID=${orderId}`);
      ordered = (issued.body as CertificateView[])[0];
    });

    const list = async (query = '') => {
      const res = await own.get(`/certificates${query}`);
      expect(res.status).toBe(200);
      return res.body as CertificateView[];
    };

    it("lists the account's live certificates, oldest first", async () => {
      expect(ordered).toEqual({
        id: expect.any(Number),
        certificate: expect.stringMatching(GENERATED),
        productID: p2,
        orderID: orderId,
        couponID: null,
        appointmentTypeIDs: [t2],
        name: 'One facial',
        email: 'cy@example.com',
        type: 'package',
        remainingCounts: { [t2]: 1 },
        remainingValue: null,
        expiration: null,
        discountType: null,
        discountAmount: null,
      });
      expect(await list()).toEqual([a, b, c, d, ordered]);
      expect(await list('.json')).toEqual([a, b, c, d, ordered]);
    });

    it('filters by product, order and e-mail', async () => {
      expect(await list(`?productID=${p1}`)).toEqual([a]);
      expect(await list(`?productID=${p2}`)).toEqual([b, ordered]);
      expect(await list(`?orderID=${orderId}`)).toEqual([ordered]);
      expect(await list(`?email=${encodeURIComponent('ANN@example.com')}`)).toEqual([a, d]);
      expect(await list(`?productID=${p2}&email=bob@example.com`)).toEqual([b]);
      expect(await list(`?productID=${p1}&email=bob@example.com`)).toEqual([]);
      expect(await list(`?orderID=${MISSING}`)).toEqual([]);
    });

    it('filters by the appointment type it can be used for now', async () => {
      expect(await list(`?appointmentTypeID=${t1}`)).toEqual([a, c]);
      expect(await list(`?appointmentTypeID=${t2}`)).toEqual([b, c, d, ordered]);

      // A package with no use left for the type is no suggestion for it.
      await setRemaining(b.id!, t2, 0);
      expect(await list(`?appointmentTypeID=${t2}`)).toEqual([c, d, ordered]);
      expect(await list(`?productID=${p2}`)).toEqual([
        { ...b, remainingCounts: { [t2]: 0 } },
        ordered,
      ]);
      await setRemaining(b.id!, t2, 1);
    });

    it("shows none of another account's certificates", async () => {
      const stranger = apiClient(app, await createAccount(app));
      expect(await stranger.get('/certificates')).toMatchObject({ status: 200, body: [] });
      expect(await stranger.get(`/certificates?productID=${p1}`)).toMatchObject({
        status: 200,
        body: [],
      });
    });

    it('refuses a filter that is no id', async () => {
      expect(await own.get('/certificates?productID=abc')).toMatchObject(
        apiError(400, 'invalid_product_id', 'Invalid "productID" attribute value.'),
      );
      expect(await own.get('/certificates?appointmentTypeID=0')).toMatchObject(
        apiError(
          400,
          'invalid_appointment_type_id',
          'Invalid "appointmentTypeID" attribute value.',
        ),
      );
    });
  });

  describe('GET and DELETE /certificates/{id}', () => {
    it('reads, then deletes a certificate whose code stays taken', async () => {
      const issued = await issue({ productID: pack, certificate: freshCode() });
      expect(await api.get(`/certificates/${issued.id}`)).toMatchObject({
        status: 200,
        body: issued,
      });

      expect(await api.delete(`/certificates/${issued.id}`)).toMatchObject({
        status: 204,
        body: undefined,
      });
      const missing = apiError(404, 'not_found', 'Not Found');
      expect(await api.get(`/certificates/${issued.id}`)).toMatchObject(missing);
      expect(await api.delete(`/certificates/${issued.id}`)).toMatchObject(missing);
      expect((await api.get(`/certificates?productID=${pack}`)).body).not.toContainEqual(
        expect.objectContaining({ id: issued.id }),
      );

      expect(
        await api.post('/certificates', { productID: gift, certificate: issued.certificate }),
      ).toMatchObject(
        apiError(400, 'invalid_certificate', `The code "${issued.certificate}" is already in use.`),
      );
      expect(await check(issued.certificate, haircut)).toMatchObject(
        apiError(400, 'invalid_certificate', `The certificate "${issued.certificate}" is invalid.`),
      );
    });

    it("keeps another account's certificate from it", async () => {
      const issued = await issue({ productID: pack });
      const forbidden = apiError(403, 'forbidden', 'Forbidden');
      expect(await other.get(`/certificates/${issued.id}`)).toMatchObject(forbidden);
      expect(await other.delete(`/certificates/${issued.id}`)).toMatchObject(forbidden);
      expect(await api.get(`/certificates/${issued.id}`)).toMatchObject({
        status: 200,
        body: issued,
      });
    });

    it('answers 404 for an id that exists nowhere', async () => {
      const missing = apiError(404, 'not_found', 'Not Found');
      expect(await api.get(`/certificates/${MISSING}`)).toMatchObject(missing);
      expect(await api.delete(`/certificates/${MISSING}`)).toMatchObject(missing);
    });
  });

  describe('GET /certificates/check', () => {
    const invalid = (code: string) =>
      apiError(400, 'invalid_certificate', `The certificate "${code}" is invalid.`);
    const expired = (code: string) =>
      apiError(400, 'expired_certificate', `The certificate "${code}" is expired.`);
    const wrongType = (code: string, typeId: number) =>
      apiError(
        400,
        'invalid_certificate_type',
        `The certificate "${code}" is invalid for appointment type "${typeId}".`,
      );
    const noUses = (code: string, typeId: number) =>
      apiError(
        400,
        'certificate_uses',
        `The certificate "${code}" has no remaining uses for appointment type "${typeId}".`,
      );

    function expectView(res: ApiResponse, view: CertificateView): void {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(view);
    }

    it('gives the certificate when booking with it would be accepted', async () => {
      const issued = await issue({ productID: pack });
      expectView(await check(issued.certificate, haircut), issued);
      expectView(await check(issued.certificate, shave), issued);
      expectView(
        await api.get(
          `/certificates/check.json?certificate=${issued.certificate}&appointmentTypeID=${haircut}`,
        ),
        issued,
      );
    });

    it('reads a code in any case, with spaces around', async () => {
      const issued = await issue({ productID: pack });
      expectView(await check(` ${issued.certificate.toLowerCase()} `, haircut), issued);
    });

    it('takes a gift certificate for any type', async () => {
      const issued = await issue({ productID: gift });
      expectView(await check(issued.certificate, color), issued);
    });

    it('checks a coupon own code as the coupon, with no id', async () => {
      const view: CertificateView = {
        id: null,
        certificate: coupon.code,
        productID: null,
        orderID: null,
        couponID: coupon.id,
        appointmentTypeIDs: [haircut],
        name: 'Spring sale',
        email: null,
        type: 'coupon',
        remainingCounts: null,
        remainingValue: null,
        expiration: '2099-12-31',
        discountType: 'percentage',
        discountAmount: '20.00',
      };
      expectView(await check(coupon.code, haircut), view);
      expectView(await check(coupon.code.toLowerCase(), haircut), view);
      expect(await check(coupon.code, shave)).toMatchObject(wrongType(coupon.code, shave));
    });

    it('checks a coupon certificate against its coupon', async () => {
      const issued = await issue({ couponID: coupon.id });
      expectView(await check(issued.certificate, haircut), issued);
      expect(await check(issued.certificate, shave)).toMatchObject(
        wrongType(issued.certificate, shave),
      );
    });

    describe('invalid_certificate', () => {
      it('for a code that exists nowhere', async () => {
        expect(await check('NO-SUCH-CODE', haircut)).toMatchObject(invalid('NO-SUCH-CODE'));
      });

      it("for another account's code", async () => {
        const issued = await issue({ productID: othersProduct }, other);
        expect(await check(issued.certificate, haircut)).toMatchObject(invalid(issued.certificate));
      });

      it("for a certificate checked without its owner's e-mail or with another", async () => {
        const issued = await issue({ productID: pack, email: 'ann@example.com' });
        expect(await check(issued.certificate, haircut)).toMatchObject(invalid(issued.certificate));
        expect(await check(issued.certificate, haircut, 'bob@example.com')).toMatchObject(
          invalid(issued.certificate),
        );
        expect(await check(issued.certificate, haircut, '')).toMatchObject(
          invalid(issued.certificate),
        );
        expectView(await check(issued.certificate, haircut, ' ANN@example.com '), issued);
      });

      it('for a deleted certificate', async () => {
        const issued = await issue({ productID: pack });
        await api.delete(`/certificates/${issued.id}`);
        expect(await check(issued.certificate, haircut)).toMatchObject(invalid(issued.certificate));
      });

      it('for a deleted coupon: its own code and the certificates issued from it', async () => {
        const code = freshCode('GONE');
        const id = await created(api, '/coupons', {
          code,
          name: 'Gone',
          discountType: 'price',
          discountAmount: 2,
          expiration: '2099-06-30',
        });
        const issued = await issue({ couponID: id });
        expectView(await check(issued.certificate, haircut), issued);
        await api.delete(`/coupons/${id}`);
        expect(await check(code, haircut)).toMatchObject(invalid(code));
        expect(await check(issued.certificate, haircut)).toMatchObject(invalid(issued.certificate));
        // The certificate itself still shows the terms it was issued with, but is suggested for
        // no type any more.
        expect(await api.get(`/certificates/${issued.id}`)).toMatchObject({
          status: 200,
          body: issued,
        });
        expect((await api.get('/certificates')).body).toContainEqual(issued);
        expect(
          (await api.get(`/certificates?appointmentTypeID=${haircut}`)).body,
        ).not.toContainEqual(expect.objectContaining({ id: issued.id }));
      });

      it('before every other error', async () => {
        const issued = await issue({ productID: pack, email: 'ann@example.com' });
        await setExpiration(issued.id!, day(-1));
        await setRemaining(issued.id!, haircut, 0);
        expect(await check(issued.certificate, color, 'bob@example.com')).toMatchObject(
          invalid(issued.certificate),
        );
      });
    });

    describe('expired_certificate', () => {
      it('for a certificate past its last day, which is still usable', async () => {
        const issued = await issue({ productID: pack });
        await setExpiration(issued.id!, day(0));
        expectView(await check(issued.certificate, haircut), { ...issued, expiration: day(0) });

        await setExpiration(issued.id!, day(-1));
        expect(await check(issued.certificate, haircut)).toMatchObject(expired(issued.certificate));
        // Not suggested for the type any more; still listed.
        expect(
          (await api.get(`/certificates?appointmentTypeID=${haircut}`)).body,
        ).not.toContainEqual(expect.objectContaining({ id: issued.id }));
        expect((await api.get('/certificates')).body).toContainEqual(
          expect.objectContaining({ id: issued.id }),
        );
      });

      it('before the type and uses errors', async () => {
        const issued = await issue({ productID: pack });
        await setExpiration(issued.id!, '2020-01-01');
        expect(await check(issued.certificate, color)).toMatchObject(expired(issued.certificate));
        await setRemaining(issued.id!, haircut, 0);
        expect(await check(issued.certificate, haircut)).toMatchObject(expired(issued.certificate));
      });

      it("for a coupon past its expiration, by the coupon's code or a certificate of it", async () => {
        const code = freshCode('PAST');
        const id = await created(api, '/coupons', {
          code,
          name: 'Past',
          discountType: 'price',
          discountAmount: 2,
          expiration: day(-1),
        });
        const issued = await issue({ couponID: id });
        expect(await check(code, haircut)).toMatchObject(expired(code));
        expect(await check(issued.certificate, haircut)).toMatchObject(expired(issued.certificate));
      });
    });

    describe('invalid_certificate_type', () => {
      it('for a type the package is not for, before its uses', async () => {
        const issued = await issue({ productID: openPack });
        expect(await check(issued.certificate, shave)).toMatchObject(
          wrongType(issued.certificate, shave),
        );
        await setRemaining(issued.id!, haircut, 0);
        expect(await check(issued.certificate, color)).toMatchObject(
          wrongType(issued.certificate, color),
        );
      });
    });

    describe('certificate_uses', () => {
      it('for a type the package has no use left for', async () => {
        const issued = await issue({ productID: pack });
        await setRemaining(issued.id!, haircut, 0);
        expect(await check(issued.certificate, haircut)).toMatchObject(
          noUses(issued.certificate, haircut),
        );
        // Its other type is still fine.
        expectView(await check(issued.certificate, shave), {
          ...issued,
          remainingCounts: { [haircut]: 0, [shave]: 2 },
        });
      });
    });

    describe('refuses a check without what it needs', () => {
      it.each<[string, string, string, string]>([
        ['no parameter', '', 'required_certificate', 'The parameter "certificate" is required.'],
        [
          'no certificate',
          '?appointmentTypeID=1',
          'required_certificate',
          'The parameter "certificate" is required.',
        ],
        [
          'an empty certificate',
          '?certificate=%20&appointmentTypeID=1',
          'required_certificate',
          'The parameter "certificate" is required.',
        ],
        [
          'no appointment type',
          '?certificate=ABC',
          'required_appointment_type_id',
          'The parameter "appointmentTypeID" is required.',
        ],
        [
          'an appointment type that is no id',
          '?certificate=ABC&appointmentTypeID=abc',
          'invalid_appointment_type_id',
          'Invalid "appointmentTypeID" attribute value.',
        ],
      ])('with %s', async (_, query, error, message) => {
        expect(await api.get(`/certificates/check${query}`)).toMatchObject(
          apiError(400, error, message),
        );
      });
    });
  });
});
