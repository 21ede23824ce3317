import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ApiClient, apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';

describe('Labels: /labels (e2e)', () => {
  let app: NestFastifyApplication;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startApi();
    api = apiClient(app, await createAccount(app));
  });

  afterAll(() => app.close());

  it('creates, reads, updates and deletes a label in the reference shape', async () => {
    const created = await api.post('/labels', { name: ' Checked in ', color: '#00AA55' });
    expect(created).toMatchObject({
      status: 200,
      body: { id: expect.any(Number), name: 'Checked in', color: '#00AA55' },
    });
    const { id } = created.body as { id: number };

    expect(await api.get('/labels')).toMatchObject({
      status: 200,
      body: [{ id, name: 'Checked in', color: '#00AA55' }],
    });
    expect((await api.get(`/labels/${id}`)).body).toEqual({
      id,
      name: 'Checked in',
      color: '#00AA55',
    });

    expect(await api.put(`/labels/${id}`, { color: 'green' })).toMatchObject({
      status: 200,
      body: { id, name: 'Checked in', color: 'green' },
    });

    expect(await api.delete(`/labels/${id}`)).toMatchObject({ status: 204, body: undefined });
    expect((await api.get('/labels')).body).toEqual([]);
    expect(await api.get(`/labels/${id}`)).toMatchObject(apiError(404, 'not_found', 'Not Found'));
  });

  it('gives a new label the default color', async () => {
    const created = await api.post('/labels', { name: 'Paid in cash' });
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Paid in cash', color: 'gray' });
  });

  it.each([
    [{}, 'required_name', 'Attribute "name" is required.'],
    [{ name: '   ' }, 'required_name', 'Attribute "name" is required.'],
    [{ name: 42 }, 'invalid_name', 'Invalid "name" attribute value.'],
    [{ name: 'x'.repeat(256) }, 'invalid_name', 'Invalid "name" attribute value.'],
    [{ name: 'Late', color: 'not a color' }, 'invalid_color', 'Invalid "color" attribute value.'],
    [{ name: 'Late', color: null }, 'invalid_color', 'Invalid "color" attribute value.'],
  ])('refuses to create %p: %s', async (body, error, message) => {
    expect(await api.post('/labels', body)).toMatchObject(apiError(400, error, message));
  });

  it.each([
    [{ name: '' }, 'invalid_name', 'Attribute "name" cannot be cleared.'],
    [{ name: null }, 'invalid_name', 'Invalid "name" attribute value.'],
    [{ color: '#12345' }, 'invalid_color', 'Invalid "color" attribute value.'],
  ])('refuses to update with %p: %s', async (body, error, message) => {
    const { id } = (await api.post('/labels', { name: 'VIP' })).body as { id: number };
    expect(await api.put(`/labels/${id}`, body)).toMatchObject(apiError(400, error, message));
    expect((await api.get(`/labels/${id}`)).body).toMatchObject({ name: 'VIP' });
  });

  it('treats an empty PUT as no change', async () => {
    const { id } = (await api.post('/labels', { name: 'Unchanged' })).body as { id: number };
    expect(await api.put(`/labels/${id}`)).toMatchObject({
      status: 200,
      body: { id, name: 'Unchanged', color: 'gray' },
    });
  });
});
