/**
 * bench:http — GET /api/v1/me (Basic auth) through the whole service, next to a bare node:http server
 * answering the same JSON, in the same run, loaded by autocannon from this (separate) process with 20
 * connections. Target: the service reaches at least 25% of the bare server's requests per second.
 */
import { join } from 'node:path';
import { DIST, benchEnv, cli, load, machine, median, startProcess, stopProcess } from './lib';

const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET_RATIO = 0.25;
const API_PORT = 3900;
const BARE_PORT = 3901;

async function main(): Promise<void> {
  const env = benchEnv({ PORT: String(API_PORT) });
  const account = cli<{ id: number; apiKey: string }>(
    ['account:create', '--email', `bench-${Date.now()}@example.test`, '--name', 'Bench'],
    env,
  );
  const authorization = `Basic ${Buffer.from(`${account.id}:${account.apiKey}`).toString('base64')}`;
  const api = await startProcess(
    join(DIST, 'main.js'),
    env,
    `http://127.0.0.1:${API_PORT}/health/live`,
  );
  const meUrl = `http://127.0.0.1:${API_PORT}/api/v1/me`;
  const body = await (await fetch(meUrl, { headers: { authorization } })).text();
  const bare = await startProcess(
    join(__dirname, 'bare-me-server.ts'),
    {
      ...process.env,
      BARE_PORT: String(BARE_PORT),
      BARE_BODY: body,
      NODE_OPTIONS: '-r ts-node/register/transpile-only',
    },
    `http://127.0.0.1:${BARE_PORT}/api/v1/me`,
  );

  const service: number[] = [];
  const baseline: number[] = [];
  const servicePercentiles: { p50: number; p99: number }[] = [];
  try {
    // Warm both up (JIT, pools, auth cache), then alternate rounds so drift hits both alike.
    await load({ url: meUrl, headers: { authorization }, connections: CONNECTIONS, duration: 3 });
    await load({
      url: `http://127.0.0.1:${BARE_PORT}/api/v1/me`,
      connections: CONNECTIONS,
      duration: 3,
    });
    for (let round = 1; round <= ROUNDS; round++) {
      const s = await load({
        url: meUrl,
        headers: { authorization },
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      const b = await load({
        url: `http://127.0.0.1:${BARE_PORT}/api/v1/me`,
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      if (s.errors || s.non2xx)
        throw new Error(`service round ${round}: ${s.errors} errors, ${s.non2xx} non-2xx`);
      service.push(s.requestsPerSecond);
      baseline.push(b.requestsPerSecond);
      servicePercentiles.push({ p50: s.p50Ms, p99: s.p99Ms });
      console.log(
        `round ${round}: service ${s.requestsPerSecond.toFixed(0)} req/s (p50 ${s.p50Ms} ms, p99 ${s.p99Ms} ms)` +
          ` | bare ${b.requestsPerSecond.toFixed(0)} req/s | ratio ${(s.requestsPerSecond / b.requestsPerSecond).toFixed(3)}`,
      );
    }
  } finally {
    await stopProcess(api);
    await stopProcess(bare);
  }

  const ratio = median(service) / median(baseline);
  console.log(
    `\nbench:http — GET /api/v1/me, ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION_S}s, ${machine()}`,
  );
  console.log(
    `  service (Basic auth, LOG_LEVEL=${env.LOG_LEVEL}): median ${median(service).toFixed(0)} req/s, p50 ${median(servicePercentiles.map((p) => p.p50))} ms, p99 ${median(servicePercentiles.map((p) => p.p99))} ms`,
  );
  console.log(`  bare node:http:                 median ${median(baseline).toFixed(0)} req/s`);
  console.log(
    `  ratio: ${(ratio * 100).toFixed(1)}% of bare (target ≥ ${TARGET_RATIO * 100}%) → ${ratio >= TARGET_RATIO ? 'MET' : 'NOT MET'}`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
