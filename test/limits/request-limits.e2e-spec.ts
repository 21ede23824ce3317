import { request as httpRequest } from 'node:http';
import Redis from 'ioredis';
import { PassThrough } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { LimitsConfig } from '../../src/config/app-config';
import { eventually } from '../support/eventually';
import { PlatformProbeController, ProbeGate } from '../support/platform-probe.controller';
import { type Started, startEntry, waitForStatus } from '../support/processes';
import { PrivateRedis } from '../support/redis-server';
import { type TestAccount, createAccount, startApi } from '../support/test-app';
import { testConfig, testEnvVars } from '../support/test-environment';

const TOO_MANY = {
  status_code: 429,
  message:
    'Rate limit reached: at most 10 requests per second and 20 concurrent requests per IP address.',
  error: 'too_many_requests',
};

function limited(limits: Partial<LimitsConfig> = {}, redisPort?: number) {
  const base = testConfig();
  return base.with({
    limits: { enabled: true, perSecond: 10, concurrent: 20, slotTtlMs: 60_000, ...limits },
    // The e2e client is 127.0.0.1: a test names its client in X-Forwarded-For.
    http: { ...base.http, trustProxy: 'loopback' },
    ...(redisPort === undefined ? {} : { redis: { ...base.redis, port: redisPort } }),
  });
}

/** A distinct client address per test, so that tests do not share a window. */
let nextClient = 1;
const newClient = () => `203.0.113.${nextClient++}`;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET over a real socket, from `localAddress` (127.0.0.x: each is a client address of its own). */
function get(
  url: string,
  options: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { localAddress: options.localAddress, headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function statusCounts(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Request limits: per client IP, shared by the API processes through Redis (e2e)', () => {
  describe("the contract's limits: 10 requests per second, 20 in flight", () => {
    let app: NestFastifyApplication;
    let account: TestAccount;

    beforeAll(async () => {
      app = await startApi({ config: limited(), controllers: [PlatformProbeController] });
      account = await createAccount(app);
    });
    afterAll(() => app.close());

    const me = (client: string) =>
      app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { authorization: account.authorization, 'x-forwarded-for': client },
      });

    it('15 quick requests from one IP: 10 pass, 5 get 429 with the envelope and Retry-After', async () => {
      const client = newClient();
      const answers = await Promise.all(Array.from({ length: 15 }, () => me(client)));
      expect(statusCounts(answers.map((a) => a.statusCode))).toEqual({ 200: 10, 429: 5 });
      for (const refused of answers.filter((a) => a.statusCode === 429)) {
        expect(refused.json()).toEqual(TOO_MANY);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    it('another IP is not affected, and the first one passes again after the window', async () => {
      const client = newClient();
      const first = await Promise.all(Array.from({ length: 12 }, () => me(client)));
      expect(statusCounts(first.map((a) => a.statusCode))).toEqual({ 200: 10, 429: 2 });

      const other = await Promise.all(Array.from({ length: 10 }, () => me(newClient())));
      expect(other.map((a) => a.statusCode)).toEqual(Array(10).fill(200));

      const retryAfter = Number(first.find((a) => a.statusCode === 429)!.headers['retry-after']);
      await sleep(retryAfter * 1000 + 100);
      const again = await Promise.all(Array.from({ length: 10 }, () => me(client)));
      expect(again.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    });

    it('counts each client apart when their requests arrive together', async () => {
      const [a, b, c] = [newClient(), newClient(), newClient()];
      const clients = Array.from({ length: 12 }, () => [a, b, c])
        .flat()
        .slice(0, 33);
      const sent = clients.filter((client, i) => client !== b || i < 9);
      const answers = await Promise.all(sent.map((client) => me(client)));
      const countsOf = (client: string) =>
        statusCounts(answers.filter((_, i) => sent[i] === client).map((r) => r.statusCode));
      expect([countsOf(a), countsOf(b), countsOf(c)]).toEqual([
        { 200: 10, 429: 1 },
        { 200: 3 },
        { 200: 10, 429: 1 },
      ]);
    });

    it('counts every request: unauthenticated ones and unknown paths too', async () => {
      const client = newClient();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          app.inject({
            method: 'GET',
            url: i % 2 ? '/api/v1/me' : '/api/v1/nowhere',
            headers: { 'x-forwarded-for': client },
          }),
        ),
      );
      const counts = statusCounts(answers.map((a) => a.statusCode));
      expect({ admitted: counts[401] + counts[404], refused: counts[429] }).toEqual({
        admitted: 10,
        refused: 2,
      });
    });

    it('refuses /oauth2/ requests in their own error shape', async () => {
      const client = newClient();
      const answers = await Promise.all(
        Array.from({ length: 11 }, () =>
          app.inject({
            method: 'POST',
            url: '/oauth2/token',
            headers: {
              'x-forwarded-for': client,
              'content-type': 'application/x-www-form-urlencoded',
            },
            payload: 'grant_type=authorization_code',
          }),
        ),
      );
      const refused = answers.filter((a) => a.statusCode === 429);
      expect(refused).toHaveLength(1);
      expect(refused[0].json()).toEqual({ error: 'too_many_requests', message: TOO_MANY.message });
      expect(refused[0].headers['retry-after']).toBe('1');
    });

    it('never limits the health probes', async () => {
      const client = newClient();
      await Promise.all(Array.from({ length: 11 }, () => me(client)));
      expect((await me(client)).statusCode).toBe(429);
      const probes = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          app.inject({
            method: 'GET',
            url: i % 2 ? '/health/live' : '/health/ready',
            headers: { 'x-forwarded-for': client },
          }),
        ),
      );
      expect(probes.map((p) => p.statusCode)).toEqual(Array(30).fill(200));
    });
  });

  describe('concurrency: at most 20 requests of one IP in flight', () => {
    let app: NestFastifyApplication;
    let account: TestAccount;
    let url: string;

    beforeAll(async () => {
      // A rate high enough that only concurrency refuses.
      app = await startApi({
        config: limited({ perSecond: 1000 }),
        controllers: [PlatformProbeController],
      });
      await app.listen(0, '127.0.0.1');
      url = `${await app.getUrl()}/api/v1/probe/slow`.replace('[::1]', '127.0.0.1');
      account = await createAccount(app);
    });
    afterEach(() => ProbeGate.open());
    afterAll(() => app.close());

    /** A request held at ProbeGate, from `client`, to `pod` (this suite's API unless named). */
    const slow = (client: string, pod = app) =>
      pod.inject({
        method: 'GET',
        url: '/api/v1/probe/slow',
        headers: { authorization: account.authorization, 'x-forwarded-for': client },
      });

    /** `count` requests sent at once, and how many of them are answered so far. */
    function sendAll(count: number, send: () => ReturnType<typeof slow>) {
      let answered = 0;
      const answers = Array.from({ length: count }, () =>
        send().then((answer) => {
          answered++;
          return answer;
        }),
      );
      return { answers, answered: () => answered };
    }

    /** `count` requests held at the closed gate at once, then all answered 200 once it opens. */
    async function expectAllAdmitted(count: number, send: () => ReturnType<typeof slow>) {
      ProbeGate.close();
      const held = Array.from({ length: count }, send);
      await eventually(() => (ProbeGate.waiting === count ? true : undefined));
      ProbeGate.open();
      expect((await Promise.all(held)).map((a) => a.statusCode)).toEqual(Array(count).fill(200));
    }

    /** A Redis connection of the test's own, and the client's count of requests in flight. */
    function inFlightOf(client: string) {
      const { redis: where, queue } = testConfig();
      const redis = new Redis({ host: where.host, port: where.port, db: where.db });
      // A field per pod, `<expiry ms>:<count>` (admit-script.ts).
      return { redis, key: `${queue.prefix}:limits:inflight:{${client}}` };
    }

    it('30 concurrent slow requests: 20 pass, 10 get 429 at once; the slots are free after', async () => {
      const client = newClient();
      ProbeGate.close();
      const requests = sendAll(30, () => slow(client));
      // The 10 refused are answered while the 20 admitted are still held.
      await eventually(() =>
        ProbeGate.waiting === 20 && requests.answered() === 10 ? true : undefined,
      );
      ProbeGate.open();
      const answers = await Promise.all(requests.answers);
      expect(statusCounts(answers.map((a) => a.statusCode))).toEqual({ 200: 20, 429: 10 });
      for (const a of answers.filter((x) => x.statusCode === 429)) {
        expect(a.json()).toEqual({
          ...TOO_MANY,
          message:
            'Rate limit reached: at most 1000 requests per second and 20 concurrent requests per IP address.',
        });
        expect(a.headers['retry-after']).toBe('1');
      }

      // Every slot was released when its response finished.
      await expectAllAdmitted(20, () => slow(client));
    });

    it('two pods count one limit: 20 in flight across both, and room freed on one serves the other', async () => {
      const client = newClient();
      const other = await startApi({
        config: limited({ perSecond: 1000 }),
        controllers: [PlatformProbeController],
      });
      const { redis, key } = inFlightOf(client);
      try {
        ProbeGate.close();
        const first = Array.from({ length: 12 }, () => slow(client));
        await eventually(() => (ProbeGate.waiting === 12 ? true : undefined));
        const second = sendAll(12, () => slow(client, other));
        // The 4 refused are answered while the 20 admitted (12 on one pod, 8 on the other) are held.
        await eventually(() =>
          ProbeGate.waiting === 20 && second.answered() === 4 ? true : undefined,
        );
        // One field per pod: 12 and 8.
        const counts = Object.values(await redis.hgetall(key)).map((v) => Number(v.split(':')[1]));
        expect(counts.sort((a, b) => a - b)).toEqual([8, 12]);

        ProbeGate.open();
        const answers = await Promise.all([...first, ...second.answers]);
        expect(statusCounts(answers.map((a) => a.statusCode))).toEqual({ 200: 20, 429: 4 });
        // Both pods reported none in flight: 20 pass on one of them again.
        await eventually(async () => ((await redis.exists(key)) === 0 ? true : undefined));
        await expectAllAdmitted(20, () => slow(client, other));
      } finally {
        ProbeGate.open();
        await redis.quit();
        await other.close();
      }
    });

    it('stops counting the requests of a dead pod once its count expires', async () => {
      const client = newClient();
      const { redis, key } = inFlightOf(client);
      try {
        // A pod that died holding 20 requests of the client: full until its count expires.
        await redis.hset(key, 'dead-pod', `${Date.now() + 60_000}:20`);
        expect((await slow(client)).statusCode).toBe(429);
        // 15 of another, live pod: 5 left for this one.
        await redis.hset(
          key,
          'dead-pod',
          `${Date.now() - 1}:20`,
          'live-pod',
          `${Date.now() + 60_000}:15`,
        );
        ProbeGate.close();
        const held = Array.from({ length: 6 }, () => slow(client));
        await eventually(() => (ProbeGate.waiting === 5 ? true : undefined));
        expect(await redis.hget(key, 'dead-pod')).toBeNull();
        ProbeGate.open();
        expect(statusCounts((await Promise.all(held)).map((a) => a.statusCode))).toEqual({
          200: 5,
          429: 1,
        });
        // This pod reported its count back to none when its requests finished: only the live pod's.
        await eventually(async () =>
          Object.keys(await redis.hgetall(key)).join() === 'live-pod' ? true : undefined,
        );
      } finally {
        await redis.del(key);
        await redis.quit();
      }
    });

    it('frees the slot of a request whose client went away before its answer', async () => {
      const client = newClient();
      ProbeGate.close();
      const sockets = Array.from({ length: 20 }, () => {
        const req = httpRequest(url, {
          agent: false,
          headers: { authorization: account.authorization, 'x-forwarded-for': client },
        });
        req.on('error', () => undefined);
        req.end();
        return req;
      });
      await eventually(() => (ProbeGate.waiting === 20 ? true : undefined));
      expect((await get(url, { headers: { 'x-forwarded-for': client } })).status).toBe(429);

      // The clients hang up while their requests are still held by the route.
      for (const req of sockets) req.destroy();
      const admitted = await eventually(async () => {
        const res = await Promise.race([
          get(url, {
            headers: { authorization: account.authorization, 'x-forwarded-for': client },
          }),
          sleep(300).then(() => ({ status: 0 })),
        ]);
        return res.status === 429 ? undefined : res.status;
      });
      // Admitted: held at the closed gate (status 0 here), or answered once the gate opened.
      expect([0, 200]).toContain(admitted);
      expect(ProbeGate.waiting).toBeGreaterThanOrEqual(20);
    });
  });

  describe('two API processes sharing Redis', () => {
    const ports: number[] = [];
    const pods: Started[] = [];

    beforeAll(async () => {
      const env = testEnvVars({ RATE_LIMIT_ENABLED: 'true' });
      pods.push(...(await Promise.all([startEntry('main.ts', env), startEntry('main.ts', env)])));
      ports.push(...pods.map((pod) => pod.port));
      await Promise.all(
        ports.map((p) => waitForStatus(`http://127.0.0.1:${p}/health/ready`, 200, 60_000)),
      );
      // Warm both up from an address of their own (the first requests of a process are slow).
      for (const p of ports)
        await get(`http://127.0.0.1:${p}/api/v1/me`, { localAddress: '127.0.0.9' });
    }, 90_000);

    afterAll(async () => {
      for (const pod of pods) pod.child.kill('SIGTERM');
      await Promise.all(pods.map((pod) => pod.exit));
    });

    it('enforce one limit together; a second IP (another source address) is not affected', async () => {
      // 127.0.0.2 sends 15 requests, alternately to each process: 10 pass in all, not 10 on each.
      const answers = await Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          get(`http://127.0.0.1:${ports[i % 2]}/api/v1/me`, { localAddress: '127.0.0.2' }),
        ),
      );
      // Admitted requests are 401 here (no credentials): the limits come before authentication.
      expect(statusCounts(answers.map((a) => a.status))).toEqual({ 401: 10, 429: 5 });
      const refused = answers.find((a) => a.status === 429)!;
      expect(JSON.parse(refused.body)).toEqual(TOO_MANY);
      expect(refused.headers['retry-after']).toBe('1');

      const other = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          get(`http://127.0.0.1:${ports[i % 2]}/api/v1/me`, { localAddress: '127.0.0.3' }),
        ),
      );
      expect(other.map((a) => a.status)).toEqual(Array(10).fill(401));
    });

    it('believes no X-Forwarded-For without TRUST_PROXY', async () => {
      const answers = await Promise.all(
        Array.from({ length: 11 }, (_, i) =>
          get(`http://127.0.0.1:${ports[i % 2]}/api/v1/me`, {
            localAddress: '127.0.0.4',
            headers: { 'x-forwarded-for': `198.51.100.${i}` },
          }),
        ),
      );
      expect(statusCounts(answers.map((a) => a.status))).toEqual({ 401: 10, 429: 1 });
    });
  });

  describe('Redis unreachable', () => {
    let redis: PrivateRedis;
    let app: NestFastifyApplication;
    let account: TestAccount;
    const logLines: Record<string, unknown>[] = [];

    beforeAll(async () => {
      redis = await PrivateRedis.start();
      const logStream = new PassThrough();
      logStream.on('data', (chunk: Buffer) => {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          logLines.push(JSON.parse(line) as Record<string, unknown>);
      });
      app = await startApi({ config: limited({}, redis.port), logStream });
      account = await createAccount(app);
    });
    afterAll(async () => {
      await app.close();
      await redis.stop();
    });

    const me = (client: string) =>
      app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: { authorization: account.authorization, 'x-forwarded-for': client },
      });

    it('serves every request while Redis is down (limits fail open, logged once), and limits again once it is back', async () => {
      const client = newClient();
      await redis.stop();
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 30 }, () => me(client)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
      // No request waited for Redis.
      expect(Date.now() - started).toBeLessThan(5000);
      const sequential: number[] = [];
      for (let i = 0; i < 10; i++) sequential.push((await me(client)).statusCode);
      expect(sequential).toEqual(Array(10).fill(200));

      await sleep(100);
      const warnings = logLines.filter((l) =>
        String(l.msg).startsWith('request limits NOT enforced'),
      );
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 50 });

      await redis.start();
      // Once the limiter has reconnected, a client over the limit is refused again.
      const again = await eventually(async () => {
        const fresh = newClient(); // each burst in a window of its own
        const burst = await Promise.all(Array.from({ length: 15 }, () => me(fresh)));
        const counts = statusCounts(burst.map((a) => a.statusCode));
        return counts[429] === 5 ? counts : undefined;
      }, 20_000);
      expect(again).toEqual({ 200: 10, 429: 5 });
      expect(logLines.some((l) => l.msg === 'request limits enforced again')).toBe(true);
    }, 60_000);
  });
});
