import { request as httpRequest } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type Redis from 'ioredis';
import { LIMITS_REDIS } from '../../src/common/limits/limits-redis';
import { eventually } from '../support/eventually';
import { CommandBus } from '@nestjs/cqrs';
import { SetEnterpriseLimitCommand } from '../../src/modules/accounts/enterprise.commands';
import {
  type TestEnterprise,
  createEnterprise,
  createMember,
} from '../support/enterprise-fixtures';
import { type Started, startEntry, waitForStatus } from '../support/processes';
import { type TestAccount, basicAuth, startApi } from '../support/test-app';
import { testConfig, testEnvVars } from '../support/test-environment';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET over a real socket, from `localAddress` (127.0.0.x: each is a client address of its own). */
function get(url: string, authorization: string, localAddress = '127.0.0.1'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { localAddress, headers: { authorization }, agent: false },
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

const tooMany = (limit: number, enterpriseId: number) => ({
  status_code: 429,
  error: 'too_many_requests',
  message: `Rate limit reached: at most ${limit} requests per minute for the enterprise "${enterpriseId}".`,
});

/**
 * The operator's per-enterprise limit (issue 26), counted in Redis across API pods: two real API
 * processes (main.ts), one limit. The per-IP limits are high here, so that only the enterprise's
 * bites; they still apply to enterprise requests (last test).
 */
describe('Enterprise API: the per-enterprise limit across two API processes (e2e)', () => {
  let app: NestFastifyApplication;
  const pods: Started[] = [];
  let acme: TestEnterprise;
  let globex: TestEnterprise;
  let acmeMember: TestAccount;
  let globexMember: TestAccount;

  beforeAll(async () => {
    app = await startApi();
    acme = await createEnterprise(app, 'Acme');
    globex = await createEnterprise(app, 'Globex');
    acmeMember = await createMember(app, acme);
    globexMember = await createMember(app, globex);
    await app.get(CommandBus).execute(new SetEnterpriseLimitCommand(acme.id, 10));
    await app.get(CommandBus).execute(new SetEnterpriseLimitCommand(globex.id, 10));
    const env = testEnvVars({
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_CONCURRENT: '1000',
    });
    pods.push(...(await Promise.all([startEntry('main.ts', env), startEntry('main.ts', env)])));
    await Promise.all(pods.map((pod) => waitForStatus(`${pod.url}/health/ready`, 200, 60_000)));
  }, 120_000);

  afterAll(async () => {
    for (const pod of pods) pod.child.kill('SIGTERM');
    await Promise.all(pods.map((pod) => pod.exit));
    await app?.close();
  });

  const memberUrl = (pod: Started, member: TestAccount) =>
    `${pod.url}/api/enterprise/v1/users/${member.id}/me`;

  it('holds one limit for both processes: 10 of 15 pass, the others are 429 naming it, with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        get(memberUrl(pods[i % 2], acmeMember), acme.authorization),
      ),
    );
    expect(statusCounts(answers.map((a) => a.status))).toEqual({ 200: 10, 429: 5 });
    const refused = answers.filter((a) => a.status === 429);
    for (const answer of refused) {
      expect(JSON.parse(answer.body)).toEqual(tooMany(10, acme.id));
      const retryAfter = Number(answer.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Both processes refuse now, the enterprise's own endpoints included.
    for (const pod of pods) {
      expect((await get(`${pod.url}/api/enterprise/v1/users`, acme.authorization)).status).toBe(
        429,
      );
    }
  });

  it("spares another enterprise, and the member's own key", async () => {
    const other = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        get(memberUrl(pods[i % 2], globexMember), globex.authorization),
      ),
    );
    expect(other.map((a) => a.status)).toEqual(Array(10).fill(200));
    const own = await Promise.all(
      pods.map((pod) => get(`${pod.url}/api/v1/me`, acmeMember.authorization)),
    );
    expect(own.map((a) => a.status)).toEqual([200, 200]);
  });

  it("counts only authenticated requests: a wrong key cannot spend an enterprise's allowance", async () => {
    const group = await createEnterprise(app, 'Targeted');
    const member = await createMember(app, group);
    await app.get(CommandBus).execute(new SetEnterpriseLimitCommand(group.id, 5));
    const forged = basicAuth(group.id, 'f'.repeat(32));
    const attacks = await Promise.all(
      Array.from({ length: 20 }, (_, i) => get(memberUrl(pods[i % 2], member), forged)),
    );
    expect(attacks.map((a) => a.status)).toEqual(Array(20).fill(401));
    const real = await Promise.all(
      Array.from({ length: 5 }, (_, i) => get(memberUrl(pods[i % 2], member), group.authorization)),
    );
    expect(real.map((a) => a.status)).toEqual(Array(5).fill(200));
  });
});

describe('Enterprise API: the per-IP limits apply as to /api/v1 (e2e)', () => {
  let app: NestFastifyApplication;

  beforeAll(async () => {
    const base = testConfig();
    app = await startApi({
      config: base.with({
        limits: { enabled: true, perSecond: 3, concurrent: 20, slotTtlMs: 60_000 },
        http: { ...base.http, trustProxy: 'loopback' },
      }),
    });
    // The limits fail open until their Redis connection is up.
    const redis = app.get<Redis>(LIMITS_REDIS);
    await eventually(() => (redis.status === 'ready' ? true : undefined));
  });
  afterAll(() => app.close());

  it('refuses an address over its rate on enterprise routes, with the per-IP message', async () => {
    const acme = await createEnterprise(app);
    const member = await createMember(app, acme);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({
          method: 'GET',
          url: `/api/enterprise/v1/users/${member.id}/me`,
          headers: { authorization: acme.authorization, 'x-forwarded-for': '198.51.100.77' },
        }),
      ),
    );
    expect(statusCounts(answers.map((a) => a.statusCode))).toEqual({ 200: 3, 429: 2 });
    expect(answers.find((a) => a.statusCode === 429)!.json()).toEqual({
      status_code: 429,
      error: 'too_many_requests',
      message:
        'Rate limit reached: at most 3 requests per second and 20 concurrent requests per IP address.',
    });
  });
});
