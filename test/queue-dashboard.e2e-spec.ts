import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { QueueName } from '../src/common/queues/queue-names';
import { basicAuth, startWorkerApp } from './support/test-app';
import { testConfig } from './support/test-environment';

const OPERATOR = { user: 'ops', password: 'a-long-operator-password' };
const UNAUTHORIZED = { status_code: 401, message: 'Unauthorized', error: 'unauthorized' };

/** The operators' queue dashboard on the worker's port: off by default, else behind Basic auth. */
describe('Queue dashboard (e2e)', () => {
  const base = testConfig();
  const config = base.with({ queue: { prefix: `${base.queue.prefix}:dashboard` } });

  describe('off (the default)', () => {
    let worker: NestFastifyApplication;
    let url: string;
    beforeAll(async () => {
      ({ worker, url } = await startWorkerApp({ config }));
    });
    afterAll(() => worker?.close());

    it('is not there: 404, with or without credentials', async () => {
      expect(config.worker.dashboard).toEqual({ enabled: false });
      expect((await fetch(`${url}/queues`)).status).toBe(404);
      const withCredentials = await fetch(`${url}/queues/api/queues`, {
        headers: { authorization: basicAuth(OPERATOR.user, OPERATOR.password) },
      });
      expect(withCredentials.status).toBe(404);
    });
  });

  describe('on', () => {
    let worker: NestFastifyApplication;
    let url: string;
    beforeAll(async () => {
      ({ worker, url } = await startWorkerApp({
        config: config.with({
          worker: { ...config.worker, dashboard: { enabled: true, ...OPERATOR } },
        }),
      }));
    });
    afterAll(() => worker?.close());

    it.each([
      ['no credentials', undefined],
      ['a wrong password', basicAuth(OPERATOR.user, `${OPERATOR.password}!`)],
      ['a wrong user', basicAuth('admin', OPERATOR.password)],
      ['another scheme', `Bearer ${OPERATOR.password}`],
    ])('answers 401 with the Basic challenge to %s', async (_name, authorization) => {
      for (const path of ['/queues', '/queues/api/queues']) {
        const res = await fetch(`${url}${path}`, {
          headers: authorization ? { authorization } : {},
        });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(
          'Basic realm="operators", charset="UTF-8"',
        );
        expect(await res.json()).toEqual(UNAUTHORIZED);
      }
    });

    it('shows the page and every queue to the operator', async () => {
      const authorization = basicAuth(OPERATOR.user, OPERATOR.password);
      const page = await fetch(`${url}/queues`, { headers: { authorization } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await page.text()).toContain('Scheduling queues');

      const api = await fetch(`${url}/queues/api/queues`, { headers: { authorization } });
      expect(api.status).toBe(200);
      const { queues } = (await api.json()) as { queues: { name: string }[] };
      expect(queues.map((q) => q.name).sort()).toEqual(Object.values(QueueName).sort());
    });

    it('leaves health and metrics open (probes and Prometheus carry no credentials)', async () => {
      expect((await fetch(`${url}/health/live`)).status).toBe(200);
      expect((await fetch(`${url}/metrics`)).status).toBe(200);
    });
  });
});
