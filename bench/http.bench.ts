/**
 * bench:http — GET /api/v1/me (Basic auth) through the whole service (dist/main.js, production
 * settings, request logs on), next to a bare node:http server answering the same JSON, in the same
 * run, both loaded by autocannon from this (separate) process with 20 connections.
 * Target: the service reaches at least 25% of the bare server's requests per second.
 *
 * Both servers are warmed up by a fixed number of requests first (JIT, the auth cache, and Node's
 * check of the deprecated `Buffer()` that passport-http calls, which inspects the stack of the first
 * 10,000 calls), then measured in alternating rounds so that drift of the machine hits both alike.
 * Figures: medians over the rounds, and the median of the per-round ratios.
 */
import { join } from 'node:path';
import {
  DIST,
  benchEnv,
  cli,
  pinCpus,
  load,
  loadServer,
  machine,
  median,
  startProcess,
  stopProcess,
  writeResult,
} from './lib';

const CONNECTIONS = 20;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 30_000);
const TARGET_RATIO = 0.25;
const API_PORT = 3900;
const BARE_PORT = 3901;

async function main(): Promise<void> {
  const cpu = pinCpus();
  const env = benchEnv({ PORT: String(API_PORT) });
  const account = cli<{ id: number; apiKey: string }>(
    ['account:create', '--email', `bench-${Date.now()}@example.test`, '--name', 'Bench'],
    env,
  );
  const authorization = `Basic ${Buffer.from(`${account.id}:${account.apiKey}`).toString('base64')}`;
  const headers = { authorization };
  const meUrl = `http://127.0.0.1:${API_PORT}/api/v1/me`;
  const bareUrl = `http://127.0.0.1:${BARE_PORT}/api/v1/me`;

  const api = await startProcess(
    join(DIST, 'main.js'),
    env,
    `http://127.0.0.1:${API_PORT}/health/live`,
    cpu.server,
  );
  const body = await (await fetch(meUrl, { headers })).text();
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
  if ((await (await fetch(bareUrl)).text()) !== body) throw new Error('bare body differs');

  const service: number[] = [];
  const baseline: number[] = [];
  const ratios: number[] = [];
  const p50: number[] = [];
  const p99: number[] = [];
  const serviceCpu: number[] = [];
  const bareCpu: number[] = [];
  const steal: number[] = [];
  try {
    await load({ url: meUrl, headers, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
    await load({ url: bareUrl, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
    for (let round = 1; round <= ROUNDS; round++) {
      const s = await loadServer(api.pid, {
        url: meUrl,
        headers,
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      const b = await loadServer(bare.pid, {
        url: bareUrl,
        connections: CONNECTIONS,
        duration: DURATION_S,
      });
      if (s.errors || s.non2xx) {
        throw new Error(`service round ${round}: ${s.errors} errors, ${s.non2xx} non-2xx`);
      }
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
          ` | bare ${b.requestsPerSecond.toFixed(0)} req/s (${us(b.cpuUsPerRequest)} CPU/req)` +
          ` | ratio ${ratios[ratios.length - 1].toFixed(3)}${s.steal === undefined ? '' : ` | steal ${percent(s.steal)}`}`,
      );
    }
  } finally {
    await stopProcess(api);
    await stopProcess(bare);
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
    ],
  });
}

function us(value: number | undefined): string {
  return value === undefined ? 'n/a' : `${value.toFixed(0)} µs`;
}

function percent(value: number): string {
  return `${(value * 100).toFixed(0)}%`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
