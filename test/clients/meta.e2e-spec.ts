import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { apiClient, apiError } from '../support/api-client';
import { createAccount, startApi } from '../support/test-app';
import { testConfig } from '../support/test-environment';

/**
 * `GET /meta` (src/modules/webhooks/meta.controller.ts): the reference's `{"hooks": [...]}`, the
 * CIDRs webhooks come from, and this service's `events`, the events a subscription may name.
 */
describe('Meta: GET /meta (e2e)', () => {
  let app: NestFastifyApplication;
  const config = testConfig();

  beforeAll(async () => {
    app = await startApi({
      config: testConfig({
        webhooks: {
          ...config.webhooks,
          sourceCidrs: ['192.0.2.0/24', '198.51.100.7/32', '2001:db8::/32'],
        },
      }),
    });
  });

  afterAll(() => app.close());

  const EVENTS = [
    'appointment.scheduled',
    'appointment.rescheduled',
    'appointment.canceled',
    'appointment.changed',
    'order.completed',
  ];

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'GET', url, headers });
    return { status: res.statusCode, body: res.json<unknown>() };
  };

  it("answers the webhooks' origins and events, without credentials, as the reference does", async () => {
    const expected = {
      status: 200,
      body: { hooks: ['192.0.2.0/24', '198.51.100.7/32', '2001:db8::/32'], events: EVENTS },
    };
    expect(await get('/api/v1/meta')).toEqual(expected);
    expect(await get('/api/v1/meta.json')).toEqual(expected);
    // Credentials, right or wrong, change nothing.
    const account = await createAccount(app);
    expect(await get('/api/v1/meta', { authorization: account.authorization })).toEqual(expected);
    expect(await get('/api/v1/meta', { authorization: 'Basic d3Jvbmc6d3Jvbmc=' })).toEqual(
      expected,
    );
  });

  it('lists exactly the events a subscription may name', async () => {
    const api = apiClient(app, await createAccount(app));
    for (const event of EVENTS) {
      expect(
        await api.post('/webhooks', { event, target: 'https://receiver.example/hook' }),
      ).toMatchObject({ status: 200, body: { event } });
    }
    expect(
      await api.post('/webhooks', { event: 'appointment.deleted', target: 'https://r.example/h' }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_event' } });
  });

  it('announces no origin when the operator names none', async () => {
    const plain = await startApi();
    try {
      const res = await plain.inject({ method: 'GET', url: '/api/v1/meta' });
      expect(res.json()).toEqual({ hooks: [], events: EVENTS });
    } finally {
      await plain.close();
    }
  });

  it('answers 405 to another method', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/meta' });
    expect({ status: res.statusCode, body: res.json() }).toMatchObject(
      apiError(405, 'method_not_allowed', 'Method Not Allowed'),
    );
    expect(res.headers.allow).toBe('GET, HEAD');
  });

  it("is described in the OpenAPI document: public, its answer's schema, 429 only", async () => {
    const doc = (await get('/api/v1/openapi.json')).body as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const op = doc.paths['/api/v1/meta'].get as {
      summary: string;
      security?: unknown;
      responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>;
    };
    expect(op.summary).toBe('Where webhooks come from, and the events they announce');
    // Public: no scheme (the document has no global one either).
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses).sort()).toEqual(['200', '429']);
    const ref = op.responses['200'].content!['application/json'].schema.$ref;
    const schema = doc.components.schemas[ref.split('/').pop()!];
    expect(schema.properties).toEqual({
      hooks: expect.objectContaining({ type: 'array', items: { type: 'string' } }),
      events: expect.objectContaining({
        type: 'array',
        items: expect.objectContaining({ type: 'string', enum: EVENTS }),
      }),
    });
  });
});
