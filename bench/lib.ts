/* Shared helpers of the benchmarks: start the built service, load it with autocannon, report. */
import autocannon from 'autocannon';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..');
export const DIST = join(ROOT, 'dist');

/** The environment of the service under benchmark: its own database and Redis prefix. */
export function benchEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: 'benchmark-secret-benchmark-secret-0123456789',
    DB_NAME: process.env.BENCH_DB_NAME ?? 'scheduling_bench',
    QUEUE_PREFIX: 'bench',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    ...overrides,
  };
}

/** Runs `node dist/cli.js …` and returns the JSON of its last line. */
export function cli<T>(args: string[], env: NodeJS.ProcessEnv): T {
  const out = execFileSync(process.execPath, [join(DIST, 'cli.js'), ...args], {
    env,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}

export async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not up after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a node script in its own process (output discarded); resolves once `readyUrl` answers. */
export async function startProcess(
  script: string,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  await waitFor(readyUrl);
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ ...options });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function machine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}
