/* Shared helpers of the benchmarks: start the built service, load it with autocannon, report. */
import autocannon from 'autocannon';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { DAY, MINUTE } from '../src/common/time/durations';
import { percentile } from '../test/support/percentile';

export const ROOT = join(__dirname, '..');
export const DIST = join(ROOT, 'dist');

/**
 * The environment of the service under benchmark: its own database and Redis prefix. The per-IP
 * limits are off (the load comes from one address); bench:http turns them on for its "limits on" leg.
 */
export function benchEnv(overrides: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: 'benchmark-secret-benchmark-secret-0123456789',
    DB_NAME: process.env.BENCH_DB_NAME ?? 'scheduling_bench',
    QUEUE_PREFIX: 'bench',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    // No metrics listener: several API processes may run at once (bench:scale).
    METRICS_PORT: '0',
    RATE_LIMIT_ENABLED: 'false',
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

/**
 * Pins this process (the load generator) to all cores but the last and returns where the server under
 * test is to run: the last core, so that neither steals the other's CPU in the middle of a request
 * (on a 2-core machine, unpinned runs of the same build varied by 2×). Without taskset, unpinned.
 */
export interface CpuLayout {
  server: string | undefined;
  client: string | undefined;
  describe: string;
}

export function pinCpus(): CpuLayout {
  const count = cpus().length;
  const hasTaskset = spawnSync('taskset', ['--version']).status === 0;
  if (count < 2 || !hasTaskset)
    return { server: undefined, client: undefined, describe: 'unpinned' };
  const server = String(count - 1);
  const client = count === 2 ? '0' : `0-${count - 2}`;
  execFileSync('taskset', ['-pc', client, String(process.pid)], { stdio: 'ignore' });
  return { server, client, describe: `server on CPU ${server}, load generator on CPU ${client}` };
}

/**
 * Starts a node script in its own process (output discarded); resolves once `readyUrl` answers.
 * With BENCH_PROFILE_DIR, the process writes a V8 CPU profile of its whole life there when it stops,
 * and, given an `inspectPort`, opens its inspector there so that `profiled` can profile one stretch.
 */
export async function startProcess(
  script: string,
  env: NodeJS.ProcessEnv,
  readyUrl: string,
  cpu?: string,
  inspectPort?: number,
): Promise<ChildProcess> {
  const command = cpu ? ['taskset', '-c', cpu, process.execPath] : [process.execPath];
  const dir = process.env.BENCH_PROFILE_DIR;
  const profile = dir
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
        ...(inspectPort ? [`--inspect=127.0.0.1:${inspectPort}`] : []),
      ]
    : [];
  const child = spawn(command[0], [...command.slice(1), ...profile, script], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(readyUrl);
  return child;
}

/**
 * Runs `work` while the process whose inspector listens on `inspectPort` (startProcess) records a
 * CPU profile, written to BENCH_PROFILE_DIR/<name>.cpuprofile: the profile of one measured stretch
 * (one round of one URL), without the process's start, warm-up or other loads. Without
 * BENCH_PROFILE_DIR it only runs `work`. Summarise with `npm run profile:summary -- <file>`.
 */
export async function profiled<T>(
  inspectPort: number | undefined,
  name: string,
  work: () => Promise<T>,
): Promise<T> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir || inspectPort === undefined) return work();
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const answers = new Map<number, (result: unknown) => void>();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) answers.get(message.id)?.(message.result);
  };
  let nextId = 0;
  const call = (method: string) =>
    new Promise<unknown>((resolve) => {
      const id = ++nextId;
      answers.set(id, resolve);
      socket.send(JSON.stringify({ id, method }));
    });
  try {
    await call('Profiler.enable');
    await call('Profiler.start');
    const result = await work();
    const { profile } = (await call('Profiler.stop')) as { profile: unknown };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    return result;
  } finally {
    socket.close();
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/**
 * Loads a URL with autocannon. The latency quantiles are those of every 2xx response's own time
 * (autocannon's, in fractions of a ms), to 10 µs: autocannon's histogram keeps whole milliseconds,
 * in which an answer under 1 ms is 0 and a ratio of two such p50s is undefined.
 */
export async function load(options: autocannon.Options): Promise<LoadResult> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon({ ...options }, (err: Error | null, done) =>
      err ? reject(err) : resolve(done),
    );
    run.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) times.push(ms);
    });
  });
  const sorted = Float64Array.from(times).sort();
  return {
    requests: result.requests.total,
    requestsPerSecond: result.requests.average,
    p50Ms: quantileMs(sorted, 0.5),
    p99Ms: quantileMs(sorted, 0.99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The q-quantile of sorted times (nearest rank), rounded to 10 µs; 0 when there are none. */
export function quantileMs(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(percentile(sorted, q * 100) * 100) / 100;
}

/** CPU time (user + system, ms) a process has used so far; undefined where /proc is not there. */
export function cpuTimeMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name; in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

const CLOCK_TICKS_PER_SECOND = 100;

/** Time the hypervisor gave to other guests (steal), all CPUs, ms; undefined off Linux. */
export function stealTimeMs(): number | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    return (Number(cpu[8]) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

export interface ServerLoadResult extends LoadResult {
  /** CPU the server process used per request (µs): steadier than req/s on a busy machine. */
  cpuUsPerRequest: number | undefined;
  /** Share of the machine's CPU time stolen by the hypervisor during the load (0-1). */
  steal: number | undefined;
}

/** Loads a server process and reports, besides autocannon's figures, what the server spent. */
export async function loadServer(
  pid: number | undefined,
  options: autocannon.Options,
): Promise<ServerLoadResult> {
  const cpuBefore = cpuTimeMs(pid);
  const stealBefore = stealTimeMs();
  const started = Date.now();
  const result = await load(options);
  const elapsedMs = (Date.now() - started) * cpus().length;
  const cpuAfter = cpuTimeMs(pid);
  const stealAfter = stealTimeMs();
  return {
    ...result,
    cpuUsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || result.requests === 0
        ? undefined
        : ((cpuAfter - cpuBefore) * 1000) / result.requests,
    steal:
      stealBefore === undefined || stealAfter === undefined
        ? undefined
        : (stealAfter - stealBefore) / elapsedMs,
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

/** A bench account's calls to the API on `port`: Basic auth, JSON, any non-200 thrown. */
export function benchApi(port: number, account: { id: number; apiKey: string }) {
  const headers = {
    authorization: `Basic ${Buffer.from(`${account.id}:${account.apiKey}`).toString('base64')}`,
    'content-type': 'application/json',
  };
  const call = async (method: string, path: string, body: unknown): Promise<{ id: number }> => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method,
      headers,
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: number };
  };
  return {
    headers,
    post: (path: string, body: unknown) => call('POST', path, body),
    put: (path: string, body: unknown) => call('PUT', path, body),
  };
}

/**
 * `calendars` calendars in `zone` open every day 00:00–24:00 and one type of `minutes` on all of
 * them (no minimum notice, 10 years ahead), created through the API.
 */
export async function createOpenCalendars(
  api: ReturnType<typeof benchApi>,
  { calendars, minutes, zone }: { calendars: number; minutes: number; zone: string },
): Promise<{ calendarIds: number[]; typeId: number }> {
  const allDay = [{ start: '00:00', end: '24:00' }];
  const hours = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
      d,
      allDay,
    ]),
  );
  const calendarIds: number[] = [];
  for (let i = 0; i < calendars; i++)
    calendarIds.push(
      (await api.post('/calendars', { name: `Room ${i + 1}`, timezone: zone, hours })).id,
    );
  const { id: typeId } = await api.post('/appointment-types', {
    name: `${minutes} minutes`,
    duration: minutes,
    calendarIDs: calendarIds,
    minHoursInAdvance: 0,
    maxDaysInAdvance: 3650,
  });
  return { calendarIds, typeId };
}

/** One figure of a benchmark's result, with what it is compared with. */
export interface Figure {
  label: string;
  value: number;
  /** `req/s`, `ms`, `%`, `µs`, `bookings/s`, `deliveries/s`, `count`… */
  unit: string;
  /** The same figure of the baseline (a bare server) measured in the same run. */
  baseline?: { label: string; value: number };
  /** The issue's target for this figure. */
  target?: { op: '>=' | '<='; value: number };
}

/** What a benchmark writes for `npm run bench` (bench/run-all.ts) to put in bench/REPORT.md. */
export interface BenchResult {
  /** The script's name after `bench:`: the file is bench/results/<bench>.json. */
  bench: string;
  title: string;
  /** The settings it ran with (rounds, durations, connections…). */
  settings: Record<string, string | number>;
  figures: Figure[];
  /** Anything else the reader needs (warnings, counts checked). */
  notes?: string[];
}

export const RESULTS_DIR = join(ROOT, 'bench', 'results');

/** Writes the benchmark's summary as JSON, beside what it printed (bench/results/<bench>.json). */
export function writeResult(result: BenchResult): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(
    join(RESULTS_DIR, `${result.bench}.json`),
    `${JSON.stringify({ ...result, finishedAt: new Date().toISOString(), machine: machine() }, null, 2)}\n`,
  );
}

/** The Redis the service under test uses, as its REDIS_* variables name it. */
export function redisOptions(env: NodeJS.ProcessEnv): {
  host: string;
  port: number;
  password: string | undefined;
  db: number;
} {
  return {
    host: env.REDIS_HOST ?? '127.0.0.1',
    port: Number(env.REDIS_PORT ?? 6379),
    password: env.REDIS_PASSWORD || undefined,
    db: Number(env.REDIS_DB ?? 0),
  };
}

/** Removes the Bull keys of a benchmark's own prefix: nothing of a previous run is replayed. */
export async function dropQueueKeys(env: NodeJS.ProcessEnv, prefix: string): Promise<void> {
  const redis = new Redis({ ...redisOptions(env), lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = nextCursor;
      if (keys.length > 0) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * Booking bodies that each ask for a (calendar, start) never asked for before in the run: calendars
 * first, then days from `firstDayAhead` on, then the slots of a day, so that concurrent requests
 * lock different calendars, nearly all answer 200, and each calendar's days fill evenly (the busy
 * time read stays the same few rows however many bookings are made). Each is a client of its own
 * (its e-mail): the client list keys on the person, and one person's bookings wait for each other
 * on their client row until they commit, which real traffic (many people) does not do.
 */
export function distinctSlots({
  calendarIds,
  typeId,
  slotMinutes,
  firstDayAhead,
  maxDaysInAdvance,
  daysApart = false,
}: {
  calendarIds: number[];
  typeId: number;
  slotMinutes: number;
  firstDayAhead: number;
  maxDaysInAdvance: number;
  /**
   * Consecutive bookings on different days as well as calendars (the calendar and the day both
   * step with the counter; distinct pairs until their least common multiple), so that concurrent
   * bookings of a resource the calendars share are of different days, as a business's are.
   */
  daysApart?: boolean;
}): () => string {
  const calendars = calendarIds.length;
  const slotsPerDay = 1440 / slotMinutes;
  const firstDay = Math.floor(Date.now() / DAY) * DAY + firstDayAhead * DAY;
  const days = maxDaysInAdvance - firstDayAhead - 2;
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const pairs = (calendars * days) / gcd(calendars, days);
  let counter = 0;
  return () => {
    const i = counter++;
    const day = daysApart ? i % days : Math.floor(i / calendars) % days;
    const pass = Math.floor(i / (daysApart ? pairs : calendars * days));
    if (pass >= slotsPerDay) throw new Error('out of slots: fewer bookings or more calendars');
    const start = firstDay + day * DAY + ((day + pass) % slotsPerDay) * slotMinutes * MINUTE;
    return JSON.stringify({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.lovelace+${i}@example.test`,
      appointmentTypeID: typeId,
      calendarID: calendarIds[i % calendars],
      datetime: new Date(start).toISOString().replace('.000Z', 'Z'),
    });
  };
}

/** A webhook receipt: when its first copy came, and how many came. */
export interface Receipt {
  at: number;
  count: number;
}

/**
 * A webhook receiver in the benchmark's process (node:http on 127.0.0.1, answers 200 at once):
 * receipts by appointment id (the body's `id`), and a way to wait for a set of them.
 */
export async function startWebhookReceiver(): Promise<{
  target: string;
  receipts: Map<number, Receipt>;
  /** Resolves once every id has been received (or after `timeoutMs`, with what came). */
  waitFor: (ids: number[], timeoutMs?: number) => Promise<void>;
  close: () => void;
}> {
  const receipts = new Map<number, Receipt>();
  let onReceipt: (() => void) | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = Number(new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('id'));
      const seen = receipts.get(id);
      if (seen) seen.count += 1;
      else receipts.set(id, { at: performance.now(), count: 1 });
      res.writeHead(200).end('ok');
      onReceipt?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const waitFor = async (ids: number[], timeoutMs = 60_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (ids.some((id) => !receipts.has(id)) && Date.now() < deadline)
      await new Promise<void>((resolve) => {
        onReceipt = resolve;
        setTimeout(resolve, 100);
      });
    onReceipt = undefined;
  };
  return {
    target: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    receipts,
    waitFor,
    close: () => server.close(),
  };
}

/** Lost (never received) and duplicated (received more than once) webhooks of these bookings. */
export function tallyReceipts(
  receipts: Map<number, Receipt>,
  booked: { id: number }[],
): { lost: number; duplicates: number } {
  let lost = 0;
  let duplicates = 0;
  for (const { id } of booked) {
    const receipt = receipts.get(id);
    if (!receipt) lost += 1;
    else duplicates += receipt.count - 1;
  }
  return { lost, duplicates };
}
