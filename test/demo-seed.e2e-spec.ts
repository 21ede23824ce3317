import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { apiClient } from './support/api-client';
import { runCli } from './support/processes';
import { basicAuth, startApi } from './support/test-app';
import { testConfig, testEnvVars } from './support/test-environment';

describe('demo:seed (e2e, the operator CLI in its own process)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    app = await startApi({ config: testConfig({ auth: { cacheTtlMs: 0 } }) });
  });
  afterAll(() => app.close());

  it('creates a demo account with a catalog to try, and reuses it when run again', async () => {
    const email = `demo-${randomUUID()}@example.test`;
    const first = await runCli(['demo:seed', '--email', email], testEnvVars());
    expect(first.code).toBe(0);
    expect(first.result).toEqual({
      id: expect.any(Number),
      apiKey: expect.stringMatching(/^[0-9a-f]{32}$/),
      email,
      seeded: true,
    });
    const { id, apiKey } = first.result as { id: number; apiKey: string };
    const api = apiClient(app, { id, apiKey, authorization: basicAuth(id, apiKey) });

    const calendars = (await api.get('/calendars')).body as { id: number; timezone: string }[];
    expect(calendars).toHaveLength(2);
    expect(new Set(calendars.map((c) => c.timezone)).size).toBe(2);

    const types = (await api.get('/appointment-types')).body as Record<string, unknown>[];
    expect(types).toEqual([
      expect.objectContaining({
        name: 'Haircut',
        type: 'service',
        calendarIDs: calendars.map((c) => c.id),
        addonIDs: [expect.any(Number)],
        formIDs: [expect.any(Number)],
      }),
      expect.objectContaining({ name: 'Morning yoga', type: 'class', classSize: 10 }),
    ]);
    const forms = (await api.get('/forms')).body as { fields: unknown[] }[];
    expect(forms).toHaveLength(1);
    expect(forms[0].fields.length).toBeGreaterThanOrEqual(3);
    expect((await api.get('/appointment-addons')).body).toHaveLength(1);
    expect((await api.get('/labels')).body).toEqual([
      { id: expect.any(Number), name: 'VIP', color: 'purple' },
    ]);
    expect((await api.get('/classes')).body).toHaveLength(5);
    expect((await api.get('/products')).body).toEqual([
      expect.objectContaining({ type: 'appointments', price: '180.00' }),
    ]);
    expect((await api.get('/coupons')).body).toEqual([
      expect.objectContaining({ code: 'WELCOME10', discountType: 'percentage' }),
    ]);

    const again = await runCli(['demo:seed', '--email', email], testEnvVars());
    expect(again.code).toBe(0);
    expect(again.result).toEqual({ id, apiKey, email, seeded: false });
    expect((await api.get('/calendars')).body).toHaveLength(2);
    expect((await api.get('/classes')).body).toHaveLength(5);
  });

  it('refuses a malformed e-mail', async () => {
    const run = await runCli(['demo:seed', '--email', 'not-an-email'], testEnvVars());
    expect(run.code).toBe(1);
    expect(run.result).toEqual({
      error: 'invalid_email',
      message: 'Invalid "email" attribute value.',
    });
  });
});
