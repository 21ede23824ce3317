import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { AppointmentType } from '../../src/modules/catalog';
import { Coupon, CouponAppointmentType } from '../../src/modules/certificates/coupon.entity';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { insertAppointmentType } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

let codes = 0;
/** A code no other test of the run uses (codes are unique per account, deleted coupons included). */
function freshCode(): string {
  codes += 1;
  return `CODE-${codes}-${Date.now()}`;
}

describe('Coupons: /coupons (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
  let accountId: number;
  let api: ApiClient;
  let other: ApiClient;
  let haircut: number;
  let shave: number;
  let deletedType: number;
  let othersType: number;

  beforeAll(async () => {
    app = await startApi();
    db = app.get(DataSource);
    const account = await createAccount(app);
    const otherAccount = await createAccount(app);
    accountId = account.id;
    api = apiClient(app, account);
    other = apiClient(app, otherAccount);
    haircut = await insertAppointmentType(app, account.id);
    shave = await insertAppointmentType(app, account.id);
    deletedType = await insertAppointmentType(app, account.id, { deleted: true });
    othersType = await insertAppointmentType(app, otherAccount.id);
  });

  afterAll(() => app.close());

  /** Everything stored for the coupon, links included, to show a refused write changed nothing. */
  async function stored(id: number) {
    return {
      coupon: await db.manager.findOneBy(Coupon, { id }),
      links: await db.manager.find(CouponAppointmentType, {
        where: { couponId: id },
        order: { appointmentTypeId: 'ASC' },
      }),
    };
  }

  async function createCoupon(body: object = {}): Promise<{ id: number; code: string }> {
    const code = freshCode();
    const created = await api.post('/coupons', {
      code,
      name: 'Spring',
      discountType: 'percentage',
      discountAmount: 10,
      appointmentTypeIDs: [haircut],
      ...body,
    });
    expect(created.status).toBe(200);
    return { id: (created.body as { id: number }).id, code };
  }

  it('creates, reads, updates and deletes a coupon in its shape', async () => {
    const created = await api.post('/coupons', {
      code: ' spring_sale-15 ',
      name: ' Spring sale ',
      discountType: 'percentage',
      discountAmount: '12.5',
      appointmentTypeIDs: [shave, haircut, shave],
      expiration: '2026-12-31',
    });
    const id = (created.body as { id: number }).id;
    const coupon = {
      id,
      code: 'SPRING_SALE-15',
      name: 'Spring sale',
      discountType: 'percentage',
      discountAmount: '12.50',
      appointmentTypeIDs: [haircut, shave],
      expiration: '2026-12-31',
    };
    expect(created).toMatchObject({ status: 200 });
    expect(created.body).toEqual(coupon);
    expect((await api.get('/coupons')).body).toEqual([coupon]);
    expect((await api.get(`/coupons/${id}`)).body).toEqual(coupon);

    // Partial; the type list is replaced whole, `[]` making the coupon apply to every type.
    const updated = await api.put(`/coupons/${id}`, {
      code: null,
      discountType: 'price',
      discountAmount: 15,
      appointmentTypeIDs: [],
      expiration: null,
    });
    const changed = {
      ...coupon,
      code: null,
      discountType: 'price',
      discountAmount: '15.00',
      appointmentTypeIDs: [],
      expiration: null,
    };
    expect(updated).toMatchObject({ status: 200 });
    expect(updated.body).toEqual(changed);
    expect((await api.get(`/coupons/${id}`)).body).toEqual(changed);

    expect(await api.put(`/coupons/${id}`, { appointmentTypeIDs: [shave] })).toMatchObject({
      status: 200,
      body: { ...changed, appointmentTypeIDs: [shave] },
    });

    expect(await api.delete(`/coupons/${id}`)).toMatchObject({ status: 204, body: undefined });
    expect((await api.get('/coupons')).body).toEqual([]);
    expect(await api.get(`/coupons/${id}`)).toMatchObject(apiError(404, 'not_found', 'Not Found'));
    expect(await api.put(`/coupons/${id}`, { name: 'Back' })).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.delete(`/coupons/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    // Soft: certificates issued from it keep it.
    expect((await stored(id)).coupon).toMatchObject({ deletedAt: expect.any(Date) });
  });

  it('creates a coupon without code, types or expiration', async () => {
    const created = await api.post('/coupons', {
      name: 'Welcome',
      discountType: 'price',
      discountAmount: 5,
    });
    expect(created).toMatchObject({ status: 200 });
    expect(created.body).toEqual({
      id: expect.any(Number),
      code: null,
      name: 'Welcome',
      discountType: 'price',
      discountAmount: '5.00',
      appointmentTypeIDs: [],
      expiration: null,
    });
    // Codeless coupons do not collide with each other.
    expect(
      (await api.post('/coupons', { name: 'Again', discountType: 'price', discountAmount: 5 }))
        .status,
    ).toBe(200);
  });

  it('takes a whole discount of 100 % and a price discount above 100', async () => {
    for (const [discountType, discountAmount, shown] of [
      ['percentage', 100, '100.00'],
      ['percentage', '0.01', '0.01'],
      ['price', '250', '250.00'],
    ]) {
      const created = await api.post('/coupons', { name: 'Big', discountType, discountAmount });
      expect(created).toMatchObject({ status: 200, body: { discountAmount: shown } });
    }
  });

  it('keeps a deleted type in the list of a coupon limited to it', async () => {
    const removed = await insertAppointmentType(app, accountId);
    const { id } = await createCoupon({ appointmentTypeIDs: [removed] });
    await db.manager.update(AppointmentType, { id: removed }, { deletedAt: new Date() });
    // Dropping it would show the coupon as one for every type.
    expect((await api.get(`/coupons/${id}`)).body).toMatchObject({ appointmentTypeIDs: [removed] });
  });

  describe('codes', () => {
    it('refuses a code already in use, in any case, by a live or a deleted coupon', async () => {
      const live = await createCoupon();
      const deleted = await createCoupon();
      await api.delete(`/coupons/${deleted.id}`);
      const count = await db.manager.count(Coupon);

      for (const code of [live.code, live.code.toLowerCase(), ` ${deleted.code} `]) {
        expect(
          await api.post('/coupons', {
            code,
            name: 'Dup',
            discountType: 'price',
            discountAmount: 1,
          }),
        ).toMatchObject(
          apiError(
            400,
            'invalid_code',
            `The code "${code.trim().toUpperCase()}" is already in use.`,
          ),
        );
      }
      expect(await db.manager.count(Coupon)).toBe(count);
    });

    it('refuses to update a coupon to a code in use, and keeps its own', async () => {
      const taken = await createCoupon();
      const mine = await createCoupon();
      const before = await stored(mine.id);
      expect(
        await api.put(`/coupons/${mine.id}`, { code: taken.code, appointmentTypeIDs: [] }),
      ).toMatchObject(apiError(400, 'invalid_code', `The code "${taken.code}" is already in use.`));
      expect(await stored(mine.id)).toEqual(before);

      expect(
        await api.put(`/coupons/${mine.id}`, { code: mine.code.toLowerCase(), name: 'Same' }),
      ).toMatchObject({ status: 200, body: { code: mine.code, name: 'Same' } });
    });

    it('lets another account use the same code', async () => {
      const { code } = await createCoupon();
      expect(
        await other.post('/coupons', {
          code,
          name: 'Theirs',
          discountType: 'price',
          discountAmount: 1,
        }),
      ).toMatchObject({ status: 200, body: { code } });
    });

    it('gives a code to exactly one of many racing creates', async () => {
      const code = freshCode();
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          api.post('/coupons', { code, name: 'Race', discountType: 'price', discountAmount: 1 }),
        ),
      );
      expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
      for (const refused of responses.filter((r) => r.status !== 200)) {
        expect(refused).toMatchObject(
          apiError(400, 'invalid_code', `The code "${code}" is already in use.`),
        );
      }
      expect(await db.manager.countBy(Coupon, { accountId, code })).toBe(1);
    });
  });

  it("keeps another account's coupons from it", async () => {
    const { id } = await createCoupon();
    const before = await stored(id);

    expect((await other.get('/coupons')).body).not.toContainEqual(expect.objectContaining({ id }));
    expect(await other.get(`/coupons/${id}`)).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await other.put(`/coupons/${id}`, { name: 'Mine now' })).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await other.delete(`/coupons/${id}`)).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await stored(id)).toEqual(before);
  });

  it('answers 404 for an id that exists nowhere', async () => {
    const missing = apiError(404, 'not_found', 'Not Found');
    expect(await api.get('/coupons/999999999')).toMatchObject(missing);
    expect(await api.put('/coupons/999999999', { name: 'X' })).toMatchObject(missing);
    expect(await api.delete('/coupons/999999999')).toMatchObject(missing);
  });

  describe('refuses a coupon that is not valid, writing nothing', () => {
    const valid = { name: 'Spring', discountType: 'price', discountAmount: 10 };
    const invalid = (attribute: string) => `Invalid "${attribute}" attribute value.`;

    it.each<[string, (typeId: number) => object, number, string, string]>([
      ['a short code', () => ({ ...valid, code: 'ab' }), 400, 'invalid_code', invalid('code')],
      [
        'a long code',
        () => ({ ...valid, code: 'A'.repeat(41) }),
        400,
        'invalid_code',
        invalid('code'),
      ],
      [
        'a code with a space',
        () => ({ ...valid, code: 'SPRING SALE' }),
        400,
        'invalid_code',
        invalid('code'),
      ],
      [
        'a code with other signs',
        () => ({ ...valid, code: 'SALE!' }),
        400,
        'invalid_code',
        invalid('code'),
      ],
      ['a blank code', () => ({ ...valid, code: '   ' }), 400, 'invalid_code', invalid('code')],
      ['a numeric code', () => ({ ...valid, code: 12345 }), 400, 'invalid_code', invalid('code')],
      [
        'no name',
        () => ({ discountType: 'price', discountAmount: 1 }),
        400,
        'required_name',
        'Attribute "name" is required.',
      ],
      [
        'a blank name',
        () => ({ ...valid, name: ' ' }),
        400,
        'required_name',
        'Attribute "name" is required.',
      ],
      [
        'a long name',
        () => ({ ...valid, name: 'x'.repeat(256) }),
        400,
        'invalid_name',
        invalid('name'),
      ],
      [
        'no discount type',
        () => ({ name: 'A', discountAmount: 1 }),
        400,
        'required_discount_type',
        'Attribute "discountType" is required.',
      ],
      [
        'an unknown discount type',
        () => ({ ...valid, discountType: 'free' }),
        400,
        'invalid_discount_type',
        invalid('discountType'),
      ],
      [
        'no discount amount',
        () => ({ name: 'A', discountType: 'price' }),
        400,
        'required_discount_amount',
        'Attribute "discountAmount" is required.',
      ],
      [
        'a text discount amount',
        () => ({ ...valid, discountAmount: 'ten' }),
        400,
        'invalid_discount_amount',
        invalid('discountAmount'),
      ],
      [
        'a negative discount amount',
        () => ({ ...valid, discountAmount: -5 }),
        400,
        'invalid_discount_amount',
        invalid('discountAmount'),
      ],
      [
        'three decimals',
        () => ({ ...valid, discountAmount: '1.005' }),
        400,
        'invalid_discount_amount',
        invalid('discountAmount'),
      ],
      [
        'a discount of 0',
        () => ({ ...valid, discountAmount: 0 }),
        400,
        'invalid_discount_amount',
        'Attribute "discountAmount" must be greater than 0.',
      ],
      [
        'a percentage over 100',
        () => ({ ...valid, discountType: 'percentage', discountAmount: '100.01' }),
        400,
        'invalid_discount_amount',
        'Attribute "discountAmount" cannot be more than 100 for a percentage discount.',
      ],
      [
        'a day that does not exist',
        () => ({ ...valid, expiration: '2026-02-30' }),
        400,
        'invalid_expiration',
        invalid('expiration'),
      ],
      [
        'a date without zeros',
        () => ({ ...valid, expiration: '2026-2-3' }),
        400,
        'invalid_expiration',
        invalid('expiration'),
      ],
      [
        'a datetime',
        () => ({ ...valid, expiration: '2026-12-31T10:00:00' }),
        400,
        'invalid_expiration',
        invalid('expiration'),
      ],
      [
        'a word',
        () => ({ ...valid, expiration: 'tomorrow' }),
        400,
        'invalid_expiration',
        invalid('expiration'),
      ],
      [
        'a numeric date',
        () => ({ ...valid, expiration: 20261231 }),
        400,
        'invalid_expiration',
        invalid('expiration'),
      ],
      [
        'types as null',
        () => ({ ...valid, appointmentTypeIDs: null }),
        400,
        'invalid_appointment_type_ids',
        invalid('appointmentTypeIDs'),
      ],
      [
        'a type id 0',
        () => ({ ...valid, appointmentTypeIDs: [0] }),
        400,
        'invalid_appointment_type_ids',
        invalid('appointmentTypeIDs'),
      ],
      [
        'a type id that is no number',
        () => ({ ...valid, appointmentTypeIDs: ['one'] }),
        400,
        'invalid_appointment_type_ids',
        invalid('appointmentTypeIDs'),
      ],
      [
        'a type that does not exist',
        (t) => ({ ...valid, appointmentTypeIDs: [t, 999999999] }),
        400,
        'invalid_appointment_type',
        'The appointment type "999999999" does not exist.',
      ],
      [
        'a deleted type',
        () => ({ ...valid, appointmentTypeIDs: [deletedType] }),
        400,
        'invalid_appointment_type',
        'The appointment type "<deleted>" does not exist.',
      ],
      [
        "another account's type",
        (t) => ({ ...valid, appointmentTypeIDs: [t, othersType] }),
        403,
        'forbidden',
        'Forbidden',
      ],
    ])('with %s', async (_, body, status, error, message) => {
      const count = await db.manager.count(Coupon);
      expect(await api.post('/coupons', body(haircut))).toMatchObject(
        apiError(status, error, message.replace('<deleted>', String(deletedType))),
      );
      expect(await db.manager.count(Coupon)).toBe(count);
    });
  });

  describe('refuses an update that is not valid, changing nothing', () => {
    it.each<[string, () => object, number, string, string]>([
      [
        'a cleared name',
        () => ({ name: '' }),
        400,
        'invalid_name',
        'Attribute "name" cannot be cleared.',
      ],
      [
        'a null name',
        () => ({ name: null }),
        400,
        'invalid_name',
        'Invalid "name" attribute value.',
      ],
      ['a bad code', () => ({ code: 'x' }), 400, 'invalid_code', 'Invalid "code" attribute value.'],
      [
        'a null discount type',
        () => ({ discountType: null }),
        400,
        'invalid_discount_type',
        'Invalid "discountType" attribute value.',
      ],
      [
        'a discount of 0',
        () => ({ discountAmount: 0 }),
        400,
        'invalid_discount_amount',
        'Attribute "discountAmount" must be greater than 0.',
      ],
      // The stored amount must fit the new type too.
      [
        'a price discount of 150 turned into a percentage',
        () => ({ discountType: 'percentage' }),
        400,
        'invalid_discount_amount',
        'Attribute "discountAmount" cannot be more than 100 for a percentage discount.',
      ],
      [
        'a bad expiration',
        () => ({ expiration: '2026-13-01' }),
        400,
        'invalid_expiration',
        'Invalid "expiration" attribute value.',
      ],
      [
        'a deleted type',
        () => ({ name: 'Renamed', appointmentTypeIDs: [shave, deletedType] }),
        400,
        'invalid_appointment_type',
        'The appointment type "<deleted>" does not exist.',
      ],
      [
        "another account's type",
        () => ({ name: 'Renamed', appointmentTypeIDs: [othersType] }),
        403,
        'forbidden',
        'Forbidden',
      ],
    ])('with %s', async (_, body, status, error, message) => {
      const { id } = await createCoupon({ discountType: 'price', discountAmount: 150 });
      const before = await stored(id);
      expect(await api.put(`/coupons/${id}`, body())).toMatchObject(
        apiError(status, error, message.replace('<deleted>', String(deletedType))),
      );
      expect(await stored(id)).toEqual(before);
    });
  });

  it('treats an empty PUT as no change', async () => {
    const { id } = await createCoupon({ expiration: '2027-01-15' });
    const before = (await api.get(`/coupons/${id}`)).body as object;
    expect(before).toMatchObject({ expiration: '2027-01-15' });
    expect(await api.put(`/coupons/${id}`)).toMatchObject({ status: 200, body: before });
  });
});
