import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';

describe('Addons: /appointment-addons (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  it('creates, reads, updates and deletes an addon in the reference shape', async () => {
    const created = await api.post('/appointment-addons', {
      name: 'Hot towel',
      duration: 15,
      price: 12.5,
      private: true,
    });
    const id = (created.body as { id: number }).id;
    const addon = { id, name: 'Hot towel', duration: 15, price: '12.50', private: true };
    expect(created).toMatchObject({ status: 200, body: addon });
    expect(created.body).toEqual(addon);

    expect((await api.get('/appointment-addons')).body).toEqual([addon]);
    expect((await api.get('/appointment-addons.json')).body).toEqual([addon]);
    expect((await api.get(`/appointment-addons/${id}`)).body).toEqual(addon);

    const updated = await api.put(`/appointment-addons/${id}`, { price: '20', private: false });
    expect(updated).toMatchObject({ status: 200 });
    expect(updated.body).toEqual({ ...addon, price: '20.00', private: false });

    expect((await api.delete(`/appointment-addons/${id}`)).status).toBe(204);
    expect((await api.get('/appointment-addons')).body).toEqual([]);
    expect(await api.get(`/appointment-addons/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
    expect(await api.delete(`/appointment-addons/${id}`)).toMatchObject(
      apiError(404, 'not_found', 'Not Found'),
    );
  });

  it('gives an addon no extra time and no price by default', async () => {
    const created = await api.post('/appointment-addons', { name: 'Conditioner' });
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Conditioner',
      duration: 0,
      price: '0.00',
      private: false,
    });
  });

  it.each([
    [{}, 'required_name', 'Attribute "name" is required.'],
    [{ name: '' }, 'required_name', 'Attribute "name" is required.'],
    [{ name: 'A', duration: -5 }, 'invalid_duration', 'Invalid "duration" attribute value.'],
    [{ name: 'A', duration: 1441 }, 'invalid_duration', 'Invalid "duration" attribute value.'],
    [{ name: 'A', duration: 1.5 }, 'invalid_duration', 'Invalid "duration" attribute value.'],
    [{ name: 'A', duration: '15' }, 'invalid_duration', 'Invalid "duration" attribute value.'],
    [{ name: 'A', price: -1 }, 'invalid_price', 'Invalid "price" attribute value.'],
    [{ name: 'A', price: '1.999' }, 'invalid_price', 'Invalid "price" attribute value.'],
    [{ name: 'A', price: 'free' }, 'invalid_price', 'Invalid "price" attribute value.'],
    [{ name: 'A', price: '10000000.00' }, 'invalid_price', 'Invalid "price" attribute value.'],
    [{ name: 'A', private: 'yes' }, 'invalid_private', 'Invalid "private" attribute value.'],
  ])('refuses to create %p', async (body, error, message) => {
    const before = (await api.get('/appointment-addons')).body as unknown[];
    expect(await api.post('/appointment-addons', body)).toMatchObject(
      apiError(400, error, message),
    );
    expect((await api.get('/appointment-addons')).body).toEqual(before);
  });

  it.each([
    [{ name: ' ' }, 'invalid_name', 'Attribute "name" cannot be cleared.'],
    [{ duration: null }, 'invalid_duration', 'Invalid "duration" attribute value.'],
    [{ price: null }, 'invalid_price', 'Invalid "price" attribute value.'],
  ])('refuses to update with %p and changes nothing', async (body, error, message) => {
    const { id } = (await api.post('/appointment-addons', { name: 'Scalp massage', duration: 10 }))
      .body as { id: number };
    expect(await api.put(`/appointment-addons/${id}`, body)).toMatchObject(
      apiError(400, error, message),
    );
    expect((await api.get(`/appointment-addons/${id}`)).body).toMatchObject({
      name: 'Scalp massage',
      duration: 10,
      price: '0.00',
    });
  });
});
