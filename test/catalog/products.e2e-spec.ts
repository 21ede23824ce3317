import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { AppointmentType, Product, ProductAppointmentType } from '../../src/modules/catalog';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { insertAppointmentType } from '../support/catalog-fixtures';
import { createAccount, startApi } from '../support/test-app';

const COUNTS_SHAPE =
  'Attribute "appointmentTypeCounts" must map appointment type ids to counts from 1 to 1000.';

describe('Products: /products (e2e)', () => {
  let app: NestFastifyApplication;
  let db: DataSource;
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
    api = apiClient(app, account);
    other = apiClient(app, otherAccount);
    haircut = await insertAppointmentType(app, account.id);
    shave = await insertAppointmentType(app, account.id);
    deletedType = await insertAppointmentType(app, account.id, { deleted: true });
    othersType = await insertAppointmentType(app, otherAccount.id);
  });

  afterAll(() => app.close());

  /** Everything stored for the product, links included, to show a refused write changed nothing. */
  async function stored(id: number) {
    return {
      product: await db.manager.findOneBy(Product, { id }),
      links: await db.manager.find(ProductAppointmentType, {
        where: { productId: id },
        order: { appointmentTypeId: 'ASC' },
      }),
    };
  }

  async function createPackage(): Promise<number> {
    const created = await api.post('/products', {
      name: 'Five haircuts',
      price: 100,
      type: 'appointments',
      appointmentTypeCounts: { [haircut]: 5 },
    });
    expect(created.status).toBe(200);
    return (created.body as { id: number }).id;
  }

  it('creates, reads, updates and deletes a package in the reference shape', async () => {
    const created = await api.post('/products', {
      name: ' Ten-visit pass ',
      description: 'Ten visits, any mix.',
      price: '250.5',
      type: 'appointments',
      hidden: true,
      expires: 365,
      appointmentTypeCounts: { [shave]: 3, [haircut]: 7 },
    });
    const id = (created.body as { id: number }).id;
    const product = {
      id,
      name: 'Ten-visit pass',
      description: 'Ten visits, any mix.',
      price: '250.50',
      type: 'appointments',
      hidden: true,
      expires: 365,
      appointmentTypeIDs: [haircut, shave],
      appointmentTypeCounts: { [haircut]: 7, [shave]: 3 },
    };
    expect(created).toMatchObject({ status: 200 });
    expect(created.body).toEqual(product);
    expect((await api.get('/products')).body).toEqual([product]);
    expect((await api.get(`/products/${id}`)).body).toEqual(product);

    // Partial: what is not given is kept; counts given are replaced whole.
    const updated = await api.put(`/products/${id}`, {
      price: 199,
      hidden: false,
      expires: null,
      appointmentTypeCounts: { [shave]: 10 },
    });
    const changed = {
      ...product,
      price: '199.00',
      hidden: false,
      expires: null,
      appointmentTypeIDs: [shave],
      appointmentTypeCounts: { [shave]: 10 },
    };
    expect(updated).toMatchObject({ status: 200 });
    expect(updated.body).toEqual(changed);
    expect((await api.get(`/products/${id}`)).body).toEqual(changed);

    expect(await api.delete(`/products/${id}`)).toMatchObject({ status: 204, body: undefined });
    expect((await api.get('/products')).body).toEqual([]);
    expect(await api.get(`/products/${id}`)).toMatchObject(apiError(404, 'not_found', 'Not Found'));
    expect(await api.put(`/products/${id}`, { name: 'Back' })).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.delete(`/products/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    // Soft: the row stays for the certificates and orders issued from it.
    expect((await stored(id)).product).toMatchObject({ deletedAt: expect.any(Date) });
  });

  it('gives a gift certificate no counts and the defaults', async () => {
    const created = await api.post('/products', { name: 'Gift card', price: 50, type: 'gift' });
    const id = (created.body as { id: number }).id;
    const gift = {
      id,
      name: 'Gift card',
      description: '',
      price: '50.00',
      type: 'gift',
      hidden: false,
      expires: null,
      appointmentTypeIDs: [],
      appointmentTypeCounts: {},
    };
    expect(created.body).toEqual(gift);
    // What a gift shows can be sent back as it is.
    expect(await api.put(`/products/${id}`, { appointmentTypeCounts: {} })).toMatchObject({
      status: 200,
      body: gift,
    });
    await api.delete(`/products/${id}`);
  });

  it('creates a subscription with counts', async () => {
    const created = await api.post('/products', {
      name: 'Monthly shave',
      price: 30,
      type: 'subscription',
      expires: 31,
      appointmentTypeCounts: { [shave]: 4 },
    });
    expect(created).toMatchObject({ status: 200 });
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Monthly shave',
      description: '',
      price: '30.00',
      type: 'subscription',
      hidden: false,
      expires: 31,
      appointmentTypeIDs: [shave],
      appointmentTypeCounts: { [shave]: 4 },
    });
    await api.delete(`/products/${(created.body as { id: number }).id}`);
  });

  describe('changing the type keeps its rule on counts', () => {
    it('needs counts to turn a gift into a package', async () => {
      const id = (await api.post('/products', { name: 'Gift', price: 20, type: 'gift' })).body
        .id as number;
      expect(await api.put(`/products/${id}`, { type: 'appointments' })).toMatchObject(
        apiError(
          400,
          'required_appointment_type_counts',
          'Attribute "appointmentTypeCounts" is required for a product of type "appointments".',
        ),
      );
      expect((await api.get(`/products/${id}`)).body).toMatchObject({ type: 'gift' });

      expect(
        await api.put(`/products/${id}`, {
          type: 'appointments',
          appointmentTypeCounts: { [haircut]: 2 },
        }),
      ).toMatchObject({
        status: 200,
        body: {
          type: 'appointments',
          appointmentTypeIDs: [haircut],
          appointmentTypeCounts: { [haircut]: 2 },
        },
      });
      await api.delete(`/products/${id}`);
    });

    it('drops the counts of a package turned into a gift', async () => {
      const id = await createPackage();
      expect(await api.put(`/products/${id}`, { type: 'gift' })).toMatchObject({
        status: 200,
        body: { type: 'gift', appointmentTypeIDs: [], appointmentTypeCounts: {} },
      });
      expect((await stored(id)).links).toEqual([]);
      await api.delete(`/products/${id}`);
    });

    it('refuses counts on a package turned into a gift', async () => {
      const id = await createPackage();
      const before = await stored(id);
      expect(
        await api.put(`/products/${id}`, {
          type: 'gift',
          appointmentTypeCounts: { [haircut]: 1 },
        }),
      ).toMatchObject(
        apiError(
          400,
          'invalid_appointment_type_counts',
          'Attribute "appointmentTypeCounts" is not allowed for a product of type "gift".',
        ),
      );
      expect(await stored(id)).toEqual(before);
      await api.delete(`/products/${id}`);
    });

    it('keeps the counts of a package turned into a subscription', async () => {
      const id = await createPackage();
      expect(await api.put(`/products/${id}`, { type: 'subscription' })).toMatchObject({
        status: 200,
        body: { type: 'subscription', appointmentTypeCounts: { [haircut]: 5 } },
      });
      await api.delete(`/products/${id}`);
    });
  });

  it('shows only the live types a product is linked to', async () => {
    const account = await createAccount(app);
    const own = apiClient(app, account);
    const kept = await insertAppointmentType(app, account.id);
    const removed = await insertAppointmentType(app, account.id);
    const { id } = (
      await own.post('/products', {
        name: 'Pack',
        price: 10,
        type: 'appointments',
        appointmentTypeCounts: { [kept]: 1, [removed]: 2 },
      })
    ).body as { id: number };
    await db.manager.update(AppointmentType, { id: removed }, { deletedAt: new Date() });

    const expected = { appointmentTypeIDs: [kept], appointmentTypeCounts: { [kept]: 1 } };
    expect((await own.get(`/products/${id}`)).body).toMatchObject(expected);
    expect((await own.get('/products')).body).toMatchObject([expected]);
  });

  it("keeps another account's products from it", async () => {
    const id = await createPackage();
    const before = await stored(id);

    expect((await other.get('/products')).body).toEqual([]);
    expect(await other.get(`/products/${id}`)).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await other.put(`/products/${id}`, { name: 'Mine now' })).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await other.delete(`/products/${id}`)).toMatchObject(
      apiError(403, 'forbidden', 'Forbidden'),
    );
    expect(await stored(id)).toEqual(before);
    await api.delete(`/products/${id}`);
  });

  it('answers 404 for an id that exists nowhere', async () => {
    const missing = apiError(404, 'not_found', 'Not Found');
    expect(await api.get('/products/999999999')).toMatchObject(missing);
    expect(await api.put('/products/999999999', { name: 'X' })).toMatchObject(missing);
    expect(await api.delete('/products/999999999')).toMatchObject(missing);
  });

  describe('refuses a product that is not valid', () => {
    const pack = (typeId: number) => ({
      name: 'Pack',
      price: 10,
      type: 'appointments',
      appointmentTypeCounts: { [typeId]: 1 },
    });

    it.each<[string, (typeId: number) => object, string, string]>([
      ['no name', () => ({}), 'required_name', 'Attribute "name" is required.'],
      [
        'a blank name',
        (t) => ({ ...pack(t), name: '  ' }),
        'required_name',
        'Attribute "name" is required.',
      ],
      [
        'a long name',
        (t) => ({ ...pack(t), name: 'x'.repeat(256) }),
        'invalid_name',
        'Invalid "name" attribute value.',
      ],
      [
        'a long description',
        (t) => ({ ...pack(t), description: 'x'.repeat(4001) }),
        'invalid_description',
        'Invalid "description" attribute value.',
      ],
      [
        'a null description',
        (t) => ({ ...pack(t), description: null }),
        'invalid_description',
        'Invalid "description" attribute value.',
      ],
      [
        'no price',
        () => ({ name: 'Pack', type: 'gift' }),
        'required_price',
        'Attribute "price" is required.',
      ],
      [
        'three decimals',
        (t) => ({ ...pack(t), price: '10.999' }),
        'invalid_price',
        'Invalid "price" attribute value.',
      ],
      [
        'a negative price',
        (t) => ({ ...pack(t), price: -1 }),
        'invalid_price',
        'Invalid "price" attribute value.',
      ],
      [
        'no type',
        () => ({ name: 'Pack', price: 10 }),
        'required_type',
        'Attribute "type" is required.',
      ],
      [
        'an unknown type',
        (t) => ({ ...pack(t), type: 'bundle' }),
        'invalid_type',
        'Invalid "type" attribute value.',
      ],
      [
        'a text hidden',
        (t) => ({ ...pack(t), hidden: 'yes' }),
        'invalid_hidden',
        'Invalid "hidden" attribute value.',
      ],
      [
        'expires 0',
        (t) => ({ ...pack(t), expires: 0 }),
        'invalid_expires',
        'Invalid "expires" attribute value.',
      ],
      [
        'expires 3651',
        (t) => ({ ...pack(t), expires: 3651 }),
        'invalid_expires',
        'Invalid "expires" attribute value.',
      ],
      [
        'a fractional expires',
        (t) => ({ ...pack(t), expires: 1.5 }),
        'invalid_expires',
        'Invalid "expires" attribute value.',
      ],
      [
        'a text expires',
        (t) => ({ ...pack(t), expires: '30' }),
        'invalid_expires',
        'Invalid "expires" attribute value.',
      ],
      [
        'counts as a list',
        (t) => ({ ...pack(t), appointmentTypeCounts: [t] }),
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'counts as null',
        (t) => ({ ...pack(t), appointmentTypeCounts: null }),
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'a count key that is no id',
        () => ({ ...pack(1), appointmentTypeCounts: { abc: 1 } }),
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'a count of 0',
        (t) => ({ ...pack(t), appointmentTypeCounts: { [t]: 0 } }),
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'a count of 1001',
        (t) => ({ ...pack(t), appointmentTypeCounts: { [t]: 1001 } }),
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'a text count',
        (t) => ({ ...pack(t), appointmentTypeCounts: { [t]: '2' } }),
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'a fractional count',
        (t) => ({ ...pack(t), appointmentTypeCounts: { [t]: 1.5 } }),
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'a package without counts',
        () => ({ name: 'Pack', price: 10, type: 'appointments' }),
        'required_appointment_type_counts',
        'Attribute "appointmentTypeCounts" is required for a product of type "appointments".',
      ],
      [
        'a package with empty counts',
        (t) => ({ ...pack(t), appointmentTypeCounts: {} }),
        'required_appointment_type_counts',
        'Attribute "appointmentTypeCounts" is required for a product of type "appointments".',
      ],
      [
        'a subscription without counts',
        () => ({ name: 'Sub', price: 10, type: 'subscription' }),
        'required_appointment_type_counts',
        'Attribute "appointmentTypeCounts" is required for a product of type "subscription".',
      ],
      [
        'a gift with counts',
        (t) => ({ ...pack(t), type: 'gift' }),
        'invalid_appointment_type_counts',
        'Attribute "appointmentTypeCounts" is not allowed for a product of type "gift".',
      ],
    ])('with %s', async (_, body, error, message) => {
      const before = (await api.get('/products')).body as unknown[];
      expect(await api.post('/products', body(haircut))).toMatchObject(
        apiError(400, error, message),
      );
      expect((await api.get('/products')).body).toEqual(before);
    });

    it('with a type that does not exist or was deleted, writing nothing', async () => {
      const before = await db.manager.count(Product);
      for (const typeId of [999999999, deletedType]) {
        expect(
          await api.post('/products', {
            ...pack(haircut),
            appointmentTypeCounts: { [haircut]: 1, [typeId]: 1 },
          }),
        ).toMatchObject(
          apiError(
            400,
            'invalid_appointment_type',
            `The appointment type "${typeId}" does not exist.`,
          ),
        );
      }
      expect(await db.manager.count(Product)).toBe(before);
    });

    it("with another account's type (403), writing nothing", async () => {
      const before = await db.manager.count(Product);
      expect(await api.post('/products', pack(othersType))).toMatchObject(
        apiError(403, 'forbidden', 'Forbidden'),
      );
      expect(await db.manager.count(Product)).toBe(before);
    });
  });

  describe('refuses an update that is not valid, changing nothing', () => {
    it.each<[string, (typeId: number) => object, number, string, string]>([
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
      [
        'a null price',
        () => ({ price: null }),
        400,
        'invalid_price',
        'Invalid "price" attribute value.',
      ],
      [
        'a null type',
        () => ({ type: null }),
        400,
        'invalid_type',
        'Invalid "type" attribute value.',
      ],
      [
        'an unknown type',
        () => ({ type: 'bundle' }),
        400,
        'invalid_type',
        'Invalid "type" attribute value.',
      ],
      [
        'expires 0',
        () => ({ expires: 0 }),
        400,
        'invalid_expires',
        'Invalid "expires" attribute value.',
      ],
      [
        'bad counts',
        () => ({ appointmentTypeCounts: { x: 1 } }),
        400,
        'invalid_appointment_type_counts',
        COUNTS_SHAPE,
      ],
      [
        'empty counts',
        () => ({ appointmentTypeCounts: {} }),
        400,
        'required_appointment_type_counts',
        'Attribute "appointmentTypeCounts" is required for a product of type "appointments".',
      ],
      [
        'a deleted type among the counts',
        (t) => ({ name: 'Renamed', appointmentTypeCounts: { [t]: 1 } }),
        400,
        'invalid_appointment_type',
        'The appointment type "<deleted>" does not exist.',
      ],
      [
        "another account's type",
        () => ({ name: 'Renamed', appointmentTypeCounts: { [othersType]: 1 } }),
        403,
        'forbidden',
        'Forbidden',
      ],
    ])('with %s', async (_, body, status, error, message) => {
      const id = await createPackage();
      const before = await stored(id);
      expect(await api.put(`/products/${id}`, body(deletedType))).toMatchObject(
        apiError(status, error, message.replace('<deleted>', String(deletedType))),
      );
      expect(await stored(id)).toEqual(before);
      await api.delete(`/products/${id}`);
    });
  });

  it('treats an empty PUT as no change', async () => {
    const id = await createPackage();
    const before = (await api.get(`/products/${id}`)).body as object;
    expect(await api.put(`/products/${id}`)).toMatchObject({ status: 200, body: before });
    await api.delete(`/products/${id}`);
  });
});
