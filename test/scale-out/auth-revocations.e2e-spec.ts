import { randomBytes } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { Secrets } from '../../src/common/crypto/secrets';
import { RotateApiKeyCommand } from '../../src/modules/accounts/account.commands';
import {
  accessToken,
  authorizationCode,
  bearer,
  exchangeFields,
  form,
  ownerAccount,
  registerClient,
  type TestClient,
  tokenRequest,
} from '../oauth/oauth-fixtures';
import { createEnterprise } from '../support/enterprise-fixtures';
import { runCli, type Started, startEntry, waitForLine, waitForStatus } from '../support/processes';
import { PrivateRedis } from '../support/redis-server';
import { basicAuth, createAccount, startApi } from '../support/test-app';
import { testConfig, testEnvVars } from '../support/test-environment';

// API processes and each CLI run start under ts-node: tens of seconds on a busy 2-core machine.
jest.setTimeout(180_000);

/** What the contract promises: a revocation takes effect on every API process within this. */
const WITHIN_MS = 1000;

/**
 * Revocations reach every API process at once (AuthRevocations, RevocationFeed): two real API
 * processes whose caches keep a proven credential for 60 s (AUTH_CACHE_TTL_MS), warmed by a
 * request that is accepted, then a change made through an API process (this test's own, built by
 * ApiModule as main.ts builds it, or one of the two) or the CLI: the other processes answer the
 * change within 1 s. Then what covers a lost subscription: cached entries are not trusted while it
 * is down, and are forgotten when it is back.
 */
describe('Revocations on every API process (e2e, real API processes and CLI)', () => {
  const env = testEnvVars({ AUTH_CACHE_TTL_MS: '60000' });
  let app: NestFastifyApplication;
  let pods: Started[];
  let client: TestClient;

  beforeAll(async () => {
    [app, ...pods] = await Promise.all([
      startApi(),
      startEntry('main.ts', env),
      startEntry('main.ts', env),
    ]);
    await Promise.all(pods.map((pod) => waitForStatus(`${pod.url}/health/ready`, 200)));
    client = await registerClient(app);
  });
  afterAll(async () => {
    await Promise.all(
      (pods ?? []).map((pod) => {
        pod.child.kill('SIGTERM');
        return pod.exit;
      }),
    );
    await app?.close();
  });

  const status = async (pod: Started, path: string, authorization: string) =>
    (await fetch(`${pod.url}${path}`, { headers: { authorization } })).status;

  /**
   * What `pod` answers once it answers `expected` (polling from `since`, the moment the change was
   * made), or its last answer to a request sent within WITHIN_MS of it.
   */
  async function answerWithin(
    pod: Started,
    path: string,
    authorization: string,
    expected: number,
    since: number,
  ): Promise<number> {
    for (;;) {
      const sentAt = Date.now();
      const answer = await status(pod, path, authorization);
      if (answer === expected || sentAt - since >= WITHIN_MS) return answer;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Changes the key's hash as a hand-run SQL statement would: no process announces it. */
  async function setKeyUnannounced(accountId: number): Promise<string> {
    const apiKey = randomBytes(16).toString('hex');
    await app
      .get(DataSource)
      .query('UPDATE accounts SET api_key_hash = ? WHERE id = ?', [
        app.get(Secrets).hash(apiKey),
        accountId,
      ]);
    return apiKey;
  }

  it('an account key rotated through an API process is refused by the others within 1 s', async () => {
    const account = await createAccount(app);
    for (const pod of pods)
      expect(await status(pod, '/api/v1/me', account.authorization)).toBe(200);

    const rotated = await app.get(CommandBus).execute(new RotateApiKeyCommand(account.id));
    const since = Date.now();

    for (const pod of pods) {
      expect(await answerWithin(pod, '/api/v1/me', account.authorization, 401, since)).toBe(401);
      expect(await status(pod, '/api/v1/me', basicAuth(account.id, rotated.apiKey))).toBe(200);
    }
  });

  it('an account key rotated by the CLI is refused by every API process within 1 s', async () => {
    const account = await createAccount(app);
    for (const pod of pods)
      expect(await status(pod, '/api/v1/me', account.authorization)).toBe(200);

    const run = await runCli(['account:rotate-key', '--id', String(account.id)], env);
    const since = Date.now();
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 }); // stderr: shown on a failure

    for (const pod of pods) {
      expect(await answerWithin(pod, '/api/v1/me', account.authorization, 401, since)).toBe(401);
      const rotated = basicAuth(account.id, run.result!.apiKey as string);
      expect(await status(pod, '/api/v1/me', rotated)).toBe(200);
    }
  });

  it('an OAuth token disconnected through one API process is refused by the other within 1 s', async () => {
    const [through, other] = pods;
    const owner = await ownerAccount(app);
    const token = await accessToken(app, client, owner);
    expect(await status(other, '/api/v1/me', bearer(token))).toBe(200);

    const res = await fetch(`${through.url}/oauth2/disconnect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({
        access_token: token,
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    });
    const since = Date.now();
    expect(res.status).toBe(200);

    expect(await answerWithin(other, '/api/v1/me', bearer(token), 401, since)).toBe(401);
  });

  it('a code presented again through one API process: its token is refused by the other within 1 s', async () => {
    const [through, other] = pods;
    const owner = await ownerAccount(app);
    const code = await authorizationCode(app, client, owner);
    const issued = await tokenRequest(app, exchangeFields(client, code));
    const token = issued.json<{ access_token: string }>().access_token;
    expect(await status(other, '/api/v1/me', bearer(token))).toBe(200);

    const res = await fetch(`${through.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(exchangeFields(client, code)),
    });
    const since = Date.now();
    expect(res.status).toBe(400);

    expect(await answerWithin(other, '/api/v1/me', bearer(token), 401, since)).toBe(401);
  });

  it("settings changed through one API process are the other's principal within 1 s", async () => {
    const [through, other] = pods;
    const account = await createAccount(app, { timezone: 'America/New_York' });
    const zoneOn = async (pod: Started) =>
      (
        (await (
          await fetch(`${pod.url}/api/v1/me`, { headers: { authorization: account.authorization } })
        ).json()) as { timezone: string }
      ).timezone;
    expect(await zoneOn(other)).toBe('America/New_York');

    const res = await fetch(`${through.url}/api/v1/settings`, {
      method: 'PUT',
      headers: { authorization: account.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ timezone: 'Asia/Kathmandu' }),
    });
    const since = Date.now();
    expect(res.status).toBe(200);

    let zone = await zoneOn(other);
    while (zone !== 'Asia/Kathmandu' && Date.now() - since < WITHIN_MS) zone = await zoneOn(other);
    expect(zone).toBe('Asia/Kathmandu');
  });

  it("an account added to an enterprise by the CLI: the enterprise's credential passes within 1 s", async () => {
    const [, other] = pods;
    const enterprise = await createEnterprise(app);
    const account = await createAccount(app);
    const memberMe = `/api/enterprise/v1/users/${account.id}/me`;
    // Both cached: the account (its own request) and the enterprise's proven key.
    expect(await status(other, '/api/v1/me', account.authorization)).toBe(200);
    expect(await status(other, memberMe, enterprise.authorization)).toBe(403);

    const run = await runCli(
      [
        'enterprise:add-account',
        '--enterprise',
        String(enterprise.id),
        '--account',
        String(account.id),
      ],
      env,
    );
    const since = Date.now();
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 }); // stderr: shown on a failure

    expect(await answerWithin(other, memberMe, enterprise.authorization, 200, since)).toBe(200);
  });

  it('an enterprise key rotated by the CLI is refused by every API process within 1 s', async () => {
    const enterprise = await createEnterprise(app);
    const list = '/api/enterprise/v1/users';
    for (const pod of pods) expect(await status(pod, list, enterprise.authorization)).toBe(200);

    const run = await runCli(['enterprise:rotate-key', '--id', String(enterprise.id)], env);
    const since = Date.now();
    expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code: 0 }); // stderr: shown on a failure

    for (const pod of pods) {
      expect(await answerWithin(pod, list, enterprise.authorization, 401, since)).toBe(401);
      const rotated = basicAuth(enterprise.id, run.result!.apiKey as string);
      expect(await status(pod, list, rotated)).toBe(200);
    }
  });

  it('a process whose subscription was cut forgets what it cached: a change it missed is seen within 1 s', async () => {
    const [pod] = pods;
    const { redis: where, queue } = testConfig();
    const redis = new Redis({ host: where.host, port: where.port });
    try {
      const account = await createAccount(app);
      expect(await status(pod, '/api/v1/me', account.authorization)).toBe(200);

      // The pod's subscriber only, by its name (this run's prefix and the pod's pid).
      const name = `${queue.prefix}:auth-revocations:${pod.child.pid}`;
      const listed = (await redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub')) as string;
      const ids = listed
        .split('\n')
        .filter((line) => line.includes(` name=${name} `))
        .map((line) => /\bid=(\d+)/.exec(line)![1]);
      expect(ids).toHaveLength(1);
      expect(await redis.call('CLIENT', 'KILL', 'ID', ids[0])).toBe(1);
      // Missed for sure: made while the subscription is down (or being made again), and announced
      // by no one.
      const newKey = await setKeyUnannounced(account.id);
      const since = Date.now();

      expect(await answerWithin(pod, '/api/v1/me', account.authorization, 401, since)).toBe(401);
      expect(await status(pod, '/api/v1/me', basicAuth(account.id, newKey))).toBe(200);
    } finally {
      redis.disconnect();
    }
  });

  describe('a process whose Redis is down', () => {
    let redis: PrivateRedis;
    let pod: Started;

    beforeAll(async () => {
      redis = await PrivateRedis.start();
      pod = await startEntry('main.ts', {
        ...env,
        REDIS_PORT: String(redis.port),
        LOG_LEVEL: 'info',
      });
      await waitForStatus(`${pod.url}/health/ready`, 200);
    });
    afterAll(async () => {
      if (pod) {
        pod.child.kill('SIGTERM');
        await pod.exit;
      }
      await redis?.stop();
    });

    it('trusts nothing it cached until its subscription is back, then caches again', async () => {
      const account = await createAccount(app);
      expect(await status(pod, '/api/v1/me', account.authorization)).toBe(200);

      const lost = waitForLine(
        pod.child,
        (line) => String(line.msg).startsWith('auth revocation feed lost'),
        10_000,
      );
      await redis.stop();
      await lost;
      // Changes no one can announce (Redis is down): the database decides each request.
      const second = await setKeyUnannounced(account.id);
      expect(await status(pod, '/api/v1/me', account.authorization)).toBe(401);
      expect(await status(pod, '/api/v1/me', basicAuth(account.id, second))).toBe(200);
      const third = await setKeyUnannounced(account.id);
      expect(await status(pod, '/api/v1/me', basicAuth(account.id, second))).toBe(401);
      expect(await status(pod, '/api/v1/me', basicAuth(account.id, third))).toBe(200);

      const back = waitForLine(
        pod.child,
        (line) => String(line.msg).startsWith('auth revocation feed subscribed'),
        15_000,
      );
      await redis.start();
      await back;
      // Trusted again: a proven key is answered from the cache, so a change announced by no one
      // is seen only when its entry expires (AUTH_CACHE_TTL_MS, the last resort).
      expect(await status(pod, '/api/v1/me', basicAuth(account.id, third))).toBe(200);
      await setKeyUnannounced(account.id);
      expect(await status(pod, '/api/v1/me', basicAuth(account.id, third))).toBe(200);
    });
  });
});
