/**
 * bench:http — GET /api/v1/me (Basic auth) through the whole service (dist/main.js, production
 * settings, request logs on), next to a bare node:http server answering the same JSON, in the same
 * run, both loaded by autocannon from this (separate) process with 20 connections.
 * Target: the service reaches at least 25% of the bare server's requests per second.
 *
 * The per-IP request limits are measured too: a second API process, identical but with the limits
 * on, high enough that every request is admitted (the load comes from one address) so that the
 * limiter runs in full (one Redis script per batch of requests, every request counted in flight
 * until it finishes). Target: limits on cost at most 15% of the requests per second with limits off.
 *
 * The enterprise API (issue 26) too: `GET /api/enterprise/v1/users/{id}/me` on the same process, the
 * same account reached with its enterprise's credentials (the member path rewritten to `/api/v1/me`
 * before routing, the enterprise's key and the member checked by the auth guard), measured against
 * `GET /api/v1/me` in ABBA order within each round (me, enterprise, enterprise, me; half a duration
 * each). Target: at least 90% of `GET /api/v1/me`'s requests per second in the same run.
 *
 * Both servers are warmed up by a fixed number of requests first (JIT, the auth cache, and Node's
 * check of the deprecated `Buffer()` that passport-http calls, which inspects the stack of the first
 * 10,000 calls), then measured in alternating rounds so that drift of the machine hits both alike.
 * Figures: medians over the rounds, and the median of the per-round ratios.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import Redis from 'ioredis';
import {
  DIST,
  benchEnv,
  cli,
  pinCpus,
  load,
  loadServer,
  machine,
  median,
  redisOptions,
  startProcess,
  stopProcess,
  writeResult,
} from './lib';
import { freePort } from '../test/support/redis-server';

const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 30_000);
/** Issue 29 (was 25% before it). */
const TARGET_RATIO = 0.5;
const TARGET_LIMITS_OVERHEAD = 0.15;
const TARGET_ENTERPRISE_RATIO = 0.9;
/** The processes this run started: stopped however the run ends. */
const started: ChildProcess[] = [];

async function main(): Promise<void> {
  // Free ports: another run on the machine may hold any fixed one.
  const [API_PORT, BARE_PORT, LIMITED_PORT] = [
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const cpu = pinCpus();
  const env = benchEnv({ PORT: String(API_PORT) });
  const account = cli<{ id: number; apiKey: string }>(
    ['account:create', '--email', `bench-${Date.now()}@example.test`, '--name', 'Bench'],
    env,
  );
  const authorization = `Basic ${Buffer.from(`${account.id}:${account.apiKey}`).toString('base64')}`;
  const headers = { authorization };
  const enterprise = cli<{ id: number; apiKey: string }>(
    ['enterprise:create', '--name', 'Bench Group'],
    env,
  );
  cli(
    [
      'enterprise:add-account',
      '--enterprise',
      String(enterprise.id),
      '--account',
      String(account.id),
    ],
    env,
  );
  const enterpriseHeaders = {
    authorization: `Basic ${Buffer.from(`${enterprise.id}:${enterprise.apiKey}`).toString('base64')}`,
  };
  const enterpriseUrl = `http://127.0.0.1:${API_PORT}/api/enterprise/v1/users/${account.id}/me`;
  const meUrl = `http://127.0.0.1:${API_PORT}/api/v1/me`;
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/api/v1/me`;
  const limitedUrl = `http://127.0.0.1:${LIMITED_PORT}/api/v1/me`;

  const api = await startProcess(
    join(DIST, 'main.js'),
    env,
    `http://127.0.0.1:${API_PORT}/health/live`,
    cpu.server,
  );
  started.push(api);
  const limited = await startProcess(
    join(DIST, 'main.js'),
    benchEnv({
      PORT: String(LIMITED_PORT),
      // Links in the answer as the other process writes them: the same body.
      PUBLIC_URL: `http://localhost:${API_PORT}`,
      RATE_LIMIT_ENABLED: 'true',
      RATE_LIMIT_PER_SECOND: '1000000000',
      RATE_LIMIT_CONCURRENT: '1000',
    }),
    `http://127.0.0.1:${LIMITED_PORT}/health/live`,
    cpu.server,
  );
  started.push(limited);
  const body = await (await fetch(meUrl, { headers })).text();
  if ((await (await fetch(enterpriseUrl, { headers: enterpriseHeaders })).text()) !== body)
    throw new Error('the enterprise API answers another body');
  if ((await (await fetch(limitedUrl, { headers })).text()) !== body)
    throw new Error('the service with limits on answers another body');
  const bare = await startProcess(
    join(__dirname, 'bare-me-server.ts'),
    {
      ...process.env,
      BARE_PORT: String(BARE_PORT),
      BARE_BODY: body,
      NODE_OPTIONS: '-r ts-node/register/transpile-only',
    },
    bareUrl,
    cpu.server,
  );
  started.push(bare);
  if ((await (await fetch(bareUrl)).text()) !== body) throw new Error('bare body differs');

  const service: number[] = [];
  const withLimits: number[] = [];
  const overheads: number[] = [];
  const limitedCpu: number[] = [];
  const redisCpu: number[] = [];
  const scriptCalls: number[] = [];
  const baseline: number[] = [];
  const ratios: number[] = [];
  const p50: number[] = [];
  const p99: number[] = [];
  const serviceCpu: number[] = [];
  const bareCpu: number[] = [];
  const steal: number[] = [];
  const throughEnterprise: number[] = [];
  const enterpriseRatios: number[] = [];
  const enterpriseCpu: number[] = [];
  const enterpriseCpuRatios: number[] = [];
  const redis = new Redis(redisOptions(env));
  try {
    await load({ url: meUrl, headers, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
    await load({
      url: enterpriseUrl,
      headers: enterpriseHeaders,
      connections: CONNECTIONS,
      amount: WARMUP_REQUESTS,
    });
    await load({ url: limitedUrl, headers, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
    await load({ url: bareUrl, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
    for (let round = 1; round <= ROUNDS; round++) {
      const s = await loadServer(api.pid, {
        url: meUrl,
        headers,
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      // The enterprise path against /me in ABBA order (me, enterprise, enterprise, me; half a
      // duration each), right after one another: a drift of the shared machine during the round
      // weighs on both sides alike.
      const half = Math.max(1, Math.round(DURATION_S / 2));
      const m1 = await loadServer(api.pid, {
        url: meUrl,
        headers,
        connections: CONNECTIONS,
        duration: half,
      });
      const e1 = await loadServer(api.pid, {
        url: enterpriseUrl,
        headers: enterpriseHeaders,
        connections: CONNECTIONS,
        duration: half,
      });
      const e2 = await loadServer(api.pid, {
        url: enterpriseUrl,
        headers: enterpriseHeaders,
        connections: CONNECTIONS,
        duration: half,
      });
      const m2 = await loadServer(api.pid, {
        url: meUrl,
        headers,
        connections: CONNECTIONS,
        duration: half,
      });
      for (const [name, r] of [
        ['/me', m1],
        ['enterprise', e1],
        ['enterprise', e2],
        ['/me', m2],
      ] as const) {
        if (r.errors || r.non2xx) {
          throw new Error(`${name} (ABBA) round ${round}: ${r.errors} errors, ${r.non2xx} non-2xx`);
        }
      }
      const e = {
        requestsPerSecond: (e1.requestsPerSecond + e2.requestsPerSecond) / 2,
        meRequestsPerSecond: (m1.requestsPerSecond + m2.requestsPerSecond) / 2,
        p50Ms: Math.max(e1.p50Ms, e2.p50Ms),
        cpuUsPerRequest: average(e1.cpuUsPerRequest, e2.cpuUsPerRequest),
        meCpuUsPerRequest: average(m1.cpuUsPerRequest, m2.cpuUsPerRequest),
      };
      throughEnterprise.push(e.requestsPerSecond);
      enterpriseRatios.push(e.requestsPerSecond / e.meRequestsPerSecond);
      if (e.cpuUsPerRequest !== undefined && e.meCpuUsPerRequest !== undefined) {
        enterpriseCpu.push(e.cpuUsPerRequest);
        enterpriseCpuRatios.push(e.cpuUsPerRequest / e.meCpuUsPerRequest);
      }
      const redisBefore = await redisStats(redis);
      const l = await loadServer(limited.pid, {
        url: limitedUrl,
        headers,
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      const redisAfter = await redisStats(redis);
      const b = await loadServer(bare.pid, {
        url: bareUrl,
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      if (s.errors || s.non2xx) {
        throw new Error(`service round ${round}: ${s.errors} errors, ${s.non2xx} non-2xx`);
      }
      if (l.errors || l.non2xx) {
        throw new Error(`limits-on round ${round}: ${l.errors} errors, ${l.non2xx} non-2xx`);
      }
      const calls = redisAfter.scriptCalls - redisBefore.scriptCalls;
      // The limiter must really have run: one script call per batch of requests at least.
      if (calls === 0) throw new Error(`limits-on round ${round}: no limiter script ran in Redis`);
      withLimits.push(l.requestsPerSecond);
      overheads.push(1 - l.requestsPerSecond / s.requestsPerSecond);
      if (l.cpuUsPerRequest !== undefined) limitedCpu.push(l.cpuUsPerRequest);
      redisCpu.push(((redisAfter.cpuMs - redisBefore.cpuMs) * 1000) / l.requests);
      scriptCalls.push(calls / l.requests);
      service.push(s.requestsPerSecond);
      baseline.push(b.requestsPerSecond);
      ratios.push(s.requestsPerSecond / b.requestsPerSecond);
      p50.push(s.p50Ms);
      p99.push(s.p99Ms);
      if (s.cpuUsPerRequest !== undefined) serviceCpu.push(s.cpuUsPerRequest);
      if (b.cpuUsPerRequest !== undefined) bareCpu.push(b.cpuUsPerRequest);
      if (s.steal !== undefined && b.steal !== undefined) steal.push((s.steal + b.steal) / 2);
      console.log(
        `round ${round}: service ${s.requestsPerSecond.toFixed(0)} req/s (p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms, ${us(s.cpuUsPerRequest)} CPU/req)` +
          ` | limits on ${l.requestsPerSecond.toFixed(0)} req/s (p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, ${us(l.cpuUsPerRequest)} CPU/req, Redis ${us(redisCpu[redisCpu.length - 1])} CPU/req, ${scriptCalls[scriptCalls.length - 1].toFixed(2)} script calls/req)` +
          ` | bare ${b.requestsPerSecond.toFixed(0)} req/s (${us(b.cpuUsPerRequest)} CPU/req)` +
          ` | enterprise ${e.requestsPerSecond.toFixed(0)} req/s vs /me ${e.meRequestsPerSecond.toFixed(0)} (ABBA; p50 ${e.p50Ms} ms, ${us(e.cpuUsPerRequest)} vs ${us(e.meCpuUsPerRequest)} CPU/req, ${(enterpriseRatios[enterpriseRatios.length - 1] * 100).toFixed(1)}% of /me)` +
          ` | ratio ${ratios[ratios.length - 1].toFixed(3)}${s.steal === undefined ? '' : ` | steal ${percent(s.steal)}`}`,
      );
    }
  } finally {
    redis.disconnect();
  }

  const ratio = median(ratios);
  console.log(
    `\nbench:http — GET /api/v1/me, ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION_S}s after ${WARMUP_REQUESTS} warm-up requests`,
  );
  console.log(`  ${machine()}; ${cpu.describe}`);
  console.log(
    `  service (Basic auth, LOG_LEVEL=${env.LOG_LEVEL}): median ${median(service).toFixed(0)} req/s, p50 ${median(p50)} ms, p99 ${median(p99)} ms`,
  );
  console.log(`  bare node:http:                 median ${median(baseline).toFixed(0)} req/s`);
  if (serviceCpu.length > 0 && bareCpu.length > 0) {
    console.log(
      `  CPU per request (median): service ${us(median(serviceCpu))}, bare ${us(median(bareCpu))}; hypervisor steal ${percent(median(steal))} of the machine`,
    );
  }
  console.log(
    `  ratio (median of rounds): ${(ratio * 100).toFixed(1)}% of bare (target ≥ ${TARGET_RATIO * 100}%) → ${ratio >= TARGET_RATIO ? 'MET' : 'NOT MET'}`,
  );
  const overhead = median(overheads);
  console.log(
    `  limits on (RATE_LIMIT_ENABLED, every request admitted): median ${median(withLimits).toFixed(0)} req/s, ${us(median(limitedCpu))} CPU/req in the service, Redis ${us(median(redisCpu))} CPU/req, ${median(scriptCalls).toFixed(2)} script calls/req`,
  );
  console.log(
    `  limits overhead (median of rounds, 1 − on/off): ${(overhead * 100).toFixed(1)}% fewer req/s (target ≤ ${TARGET_LIMITS_OVERHEAD * 100}%) → ${overhead <= TARGET_LIMITS_OVERHEAD ? 'MET' : 'NOT MET'}`,
  );
  const enterpriseRatio = median(enterpriseRatios);
  console.log(
    `  enterprise API (GET /api/enterprise/v1/users/{id}/me, same process): median ${median(throughEnterprise).toFixed(0)} req/s, ${us(median(enterpriseCpu))} CPU/req`,
  );
  console.log(
    `  enterprise / /me (req/s, ABBA pairs, median of rounds): ${(enterpriseRatio * 100).toFixed(1)}% (target ≥ ${TARGET_ENTERPRISE_RATIO * 100}%) → ${enterpriseRatio >= TARGET_ENTERPRISE_RATIO ? 'MET' : 'NOT MET'}`,
  );
  if (enterpriseCpuRatios.length > 0) {
    console.log(
      `  enterprise CPU per request / /me's (median of rounds): ${(median(enterpriseCpuRatios) * 100).toFixed(1)}%`,
    );
  }
  writeResult({
    bench: 'http',
    title: 'GET /api/v1/me (Basic auth) vs a bare node:http server',
    settings: {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      durationS: DURATION_S,
      warmup: WARMUP_REQUESTS,
    },
    figures: [
      {
        label: 'service req/s',
        value: median(service),
        unit: 'req/s',
        baseline: { label: 'bare', value: median(baseline) },
      },
      {
        label: 'service / bare (median of rounds)',
        value: ratio * 100,
        unit: '%',
        target: { op: '>=', value: TARGET_RATIO * 100 },
      },
      { label: 'service p50', value: median(p50), unit: 'ms' },
      { label: 'service p99', value: median(p99), unit: 'ms' },
      ...(serviceCpu.length > 0 && bareCpu.length > 0
        ? [
            {
              label: 'CPU per request',
              value: median(serviceCpu),
              unit: 'µs',
              baseline: { label: 'bare', value: median(bareCpu) },
            },
          ]
        : []),
      {
        label: 'limits overhead (1 − on/off, median of rounds)',
        value: overhead * 100,
        unit: '%',
        target: { op: '<=', value: TARGET_LIMITS_OVERHEAD * 100 },
      },
      { label: 'service req/s with limits on', value: median(withLimits), unit: 'req/s' },
      {
        label: 'enterprise API /users/{id}/me req/s',
        value: median(throughEnterprise),
        unit: 'req/s',
        baseline: { label: '/api/v1/me', value: median(service) },
      },
      {
        label: 'enterprise / /me (median of rounds)',
        value: enterpriseRatio * 100,
        unit: '%',
        target: { op: '>=', value: TARGET_ENTERPRISE_RATIO * 100 },
      },
    ],
  });
}

/**
 * Redis's own CPU time (ms) and the script calls so far (INFO cpu, commandstats): the limiter's,
 * and those of anything else using this Redis meanwhile (other processes on a shared machine).
 */
async function redisStats(redis: Redis): Promise<{ cpuMs: number; scriptCalls: number }> {
  const info = (await redis.info('cpu')) + (await redis.info('commandstats'));
  const field = (name: string) =>
    Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  const calls = (command: string) =>
    Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return {
    cpuMs: (field('used_cpu_user') + field('used_cpu_sys')) * 1000,
    scriptCalls: calls('evalsha') + calls('eval'),
  };
}

function average(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : (a + b) / 2;
}

function us(value: number | undefined): string {
  return value === undefined ? 'n/a' : `${value.toFixed(0)} µs`;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(0)}%`;
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(() => Promise.all(started.map(stopProcess)));
