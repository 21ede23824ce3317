/**
 * bench:pages — the client pages' server time next to the API call they stand on, in one run of
 * the built API (dist/main.js, production settings, request logs on): the scheduling page's time
 * list (`/schedule/{id}?…&date=…&part=times`, what the page's script fetches; and the whole time
 * step, dates and times, for reference) and the confirmation page, each against
 * `GET /api/v1/availability/times` for the same day. Rounds alternate the URLs; medians.
 * Targets: the time list's and the confirmation page's p50 within 1.5× of the API call's; the
 * whole time step's server CPU per request (the service process's CPU time over the round, divided
 * by the requests it answered) within 3× of the API call's; each page's HTML + CSS + JS under
 * 60 KB uncompressed.
 */
import { join } from 'node:path';
import { DateTime } from 'luxon';
import {
  DIST,
  benchApi,
  benchEnv,
  cli,
  load,
  loadServer,
  machine,
  median,
  pinCpus,
  profiled,
  startProcess,
  stopProcess,
  writeResult,
} from './lib';

const CONNECTIONS = 4;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 1_000);
const PORT = 3907;
/** With BENCH_PROFILE_DIR: the API's inspector, to profile round 1 of each page and of /times. */
const INSPECT_PORT = 4907;
const ZONE = 'America/New_York';
const TARGET_RATIO = 1.5;
const TARGET_STEP_CPU_RATIO = 3;
const TARGET_BYTES = 60 * 1024;

interface Figures {
  p50: number;
  p99: number;
  rps: number;
  cpuUs: number | undefined;
}

async function main(): Promise<void> {
  const cpu = pinCpus();
  const origin = `http://127.0.0.1:${PORT}`;
  const env = benchEnv({ PORT: String(PORT), PUBLIC_URL: origin });
  const account = cli<{ id: number; apiKey: string }>(
    ['account:create', '--email', `bench-pages-${Date.now()}@example.test`, '--name', 'Bench'],
    env,
  );
  const server = await startProcess(
    join(DIST, 'main.js'),
    env,
    `${origin}/health/live`,
    cpu.server,
    INSPECT_PORT,
  );
  const api = benchApi(PORT, account);
  const results: Record<string, Figures[]> = {
    api: [],
    timeList: [],
    timeStep: [],
    confirmation: [],
    apiAppointment: [],
  };
  const sizes: Record<string, number> = {};
  let day = '';
  try {
    const weekdays = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [
        d,
        [{ start: '09:00', end: '17:00' }],
      ]),
    );
    const calendar = (
      await api.post('/calendars', { name: 'Dr. Bench', timezone: ZONE, hours: weekdays })
    ).id;
    const type = (
      await api.post('/appointment-types', {
        name: 'Consultation',
        duration: 30,
        calendarIDs: [calendar],
        maxDaysInAdvance: 3650,
      })
    ).id;
    // A Wednesday about a month ahead, a few of its times taken.
    day = DateTime.now().setZone(ZONE).plus({ days: 30 }).set({ weekday: 3 }).toISODate()!;
    let confirmationPage = '';
    for (const hour of ['09:00', '11:30', '14:00']) {
      const res = await fetch(`${origin}/api/v1/appointments`, {
        method: 'POST',
        headers: api.headers,
        body: JSON.stringify({
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: 'ada@example.test',
          appointmentTypeID: type,
          datetime: DateTime.fromISO(`${day}T${hour}`, { zone: ZONE }).toISO(),
        }),
      });
      if (res.status !== 200) throw new Error(`booking: ${res.status} ${await res.text()}`);
      confirmationPage = ((await res.json()) as { confirmationPage: string }).confirmationPage;
    }
    const page = `${origin}/schedule/${account.id}?appointmentType=${type}&timezone=${encodeURIComponent(ZONE)}&date=${day}`;
    // The pages' requests carry the browser's cookie (the CSRF nonce), as the page's script does.
    const first = await fetch(page);
    const browser = { cookie: (first.headers.get('set-cookie') ?? '').split(';')[0] };
    const urls: Record<string, { url: string; headers?: Record<string, string> }> = {
      api: {
        url: `${origin}/api/v1/availability/times?appointmentTypeID=${type}&date=${day}&timezone=${encodeURIComponent(ZONE)}`,
        headers: api.headers,
      },
      timeList: { url: `${page}&part=times`, headers: browser },
      timeStep: { url: page, headers: browser },
      confirmation: { url: confirmationPage, headers: browser },
      // For reference: the API's read of the same appointment (what the confirmation page shows).
      apiAppointment: {
        url: `${origin}/api/v1/appointments/${/\/confirmation\/(\d+)-/.exec(confirmationPage)![1]}`,
        headers: api.headers,
      },
    };
    for (const { url, headers } of Object.values(urls)) {
      const res = await fetch(url, { headers });
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      await load({ url, headers, connections: CONNECTIONS, amount: WARMUP_REQUESTS });
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, { url, headers }] of Object.entries(urls)) {
        const profiledHere =
          round === 1 && ['timeList', 'timeStep', 'confirmation', 'api'].includes(name);
        const r = await profiled(profiledHere ? INSPECT_PORT : undefined, `pages-${name}`, () =>
          loadServer(server.pid, { url, headers, connections: CONNECTIONS, duration: DURATION_S }),
        );
        if (r.errors || r.non2xx)
          throw new Error(`${url}: ${r.errors} errors, ${r.non2xx} non-2xx`);
        results[name].push({
          p50: r.p50Ms,
          p99: r.p99Ms,
          rps: r.requestsPerSecond,
          cpuUs: r.cpuUsPerRequest,
        });
      }
      console.log(
        `round ${round}: ${Object.entries(results)
          .map(([name, f]) => `${name} ${describe(f[round - 1])}`)
          .join(' | ')}`,
      );
    }
    // What a client's browser downloads for each page: its HTML, the stylesheet and the script.
    const assets = await Promise.all(
      ['pages.css', 'pages.js'].map(
        async (a) => (await (await fetch(`${origin}/pages/${a}`)).arrayBuffer()).byteLength,
      ),
    );
    const assetBytes = assets.reduce((a, b) => a + b, 0);
    const pages: Record<string, string> = {
      'scheduling: types': `${origin}/schedule/${account.id}`,
      'scheduling: date and times': page,
      'scheduling: details': `${origin}/schedule/${account.id}?appointmentType=${type}&timezone=${encodeURIComponent(ZONE)}&datetime=${encodeURIComponent(DateTime.fromISO(`${day}T10:00`, { zone: ZONE }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZZ"))}`,
      confirmation: confirmationPage,
      reschedule: `${confirmationPage}/reschedule?date=${day}`,
    };
    for (const [name, url] of Object.entries(pages)) {
      const res = await fetch(url);
      if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
      sizes[name] = (await res.arrayBuffer()).byteLength + assetBytes;
    }
  } finally {
    await stopProcess(server);
  }

  const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, medianOf(v)])) as Record<
    string,
    Figures
  >;
  const ratio = (name: string) => m[name].p50 / m.api.p50;
  console.log(
    `\nbench:pages — ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION_S}s per figure after ${WARMUP_REQUESTS} warm-up requests; day ${day}`,
  );
  console.log(`  ${machine()}; ${cpu.describe}; LOG_LEVEL=${env.LOG_LEVEL}`);
  for (const [name, f] of Object.entries(m)) console.log(`  ${name.padEnd(13)} ${describe(f)}`);
  console.log(
    `  confirmation p50 / GET /appointments/{id} p50: ${(m.confirmation.p50 / m.apiAppointment.p50).toFixed(2)}× (reference)`,
  );
  for (const name of ['timeList', 'confirmation'])
    console.log(
      `  ${name} p50 / API p50: ${ratio(name).toFixed(2)}× (target ≤ ${TARGET_RATIO}×) → ${ratio(name) <= TARGET_RATIO ? 'MET' : 'NOT MET'}`,
    );
  console.log(`  timeStep p50 / API p50: ${ratio('timeStep').toFixed(2)}× (reference)`);
  const stepCpu = cpuRatio(m.timeStep, m.api);
  console.log(
    stepCpu === undefined
      ? '  timeStep CPU / API CPU: not measured (no /proc) → NOT MET'
      : `  timeStep CPU / API CPU per request: ${stepCpu.toFixed(2)}× (${results.timeStep.map((f, i) => cpuRatio(f, results.api[i])?.toFixed(2)).join(', ')}; target ≤ ${TARGET_STEP_CPU_RATIO}×) → ${stepCpu <= TARGET_STEP_CPU_RATIO ? 'MET' : 'NOT MET'}`,
  );
  for (const [name, bytes] of Object.entries(sizes))
    console.log(
      `  ${name}: HTML + CSS + JS ${(bytes / 1024).toFixed(1)} KB (target < 60 KB) → ${bytes < TARGET_BYTES ? 'MET' : 'NOT MET'}`,
    );
  writeResult({
    bench: 'pages',
    title: 'Client pages: server time next to GET /availability/times, and page weight',
    settings: {
      connections: CONNECTIONS,
      rounds: ROUNDS,
      durationS: DURATION_S,
      warmup: WARMUP_REQUESTS,
    },
    figures: [
      ...['timeList', 'confirmation'].map((name) => ({
        label: `${name} p50`,
        value: m[name].p50,
        unit: 'ms',
        baseline: { label: '/availability/times p50', value: m.api.p50 },
      })),
      ...(stepCpu !== undefined
        ? [
            {
              label: 'time step CPU per request',
              value: Number(m.timeStep.cpuUs!.toFixed(0)),
              unit: 'µs',
              baseline: { label: '/availability/times', value: Number(m.api.cpuUs!.toFixed(0)) },
            },
            {
              label: 'time step ÷ /availability/times CPU per request',
              value: Number(stepCpu.toFixed(2)),
              unit: '×',
              target: { op: '<=' as const, value: TARGET_STEP_CPU_RATIO },
            },
          ]
        : []),
      ...Object.entries(sizes).map(([name, bytes]) => ({
        label: `${name} HTML + CSS + JS`,
        value: bytes,
        unit: 'bytes',
        target: { op: '<=' as const, value: TARGET_BYTES },
      })),
    ],
  });
}

function medianOf(figures: Figures[]): Figures {
  const cpu = figures.map((f) => f.cpuUs).filter((c): c is number => c !== undefined);
  return {
    p50: median(figures.map((f) => f.p50)),
    p99: median(figures.map((f) => f.p99)),
    rps: median(figures.map((f) => f.rps)),
    cpuUs: cpu.length ? median(cpu) : undefined,
  };
}

/** The CPU per request of a page over the API call's (the round's, or the medians'). */
function cpuRatio(page: Figures, api: Figures): number | undefined {
  return page.cpuUs === undefined || !api.cpuUs ? undefined : page.cpuUs / api.cpuUs;
}

function describe(f: Figures): string {
  const cpu = f.cpuUs === undefined ? '' : `, ${f.cpuUs.toFixed(0)} µs CPU`;
  return `p50 ${f.p50} ms, p99 ${f.p99} ms, ${f.rps.toFixed(0)} req/s${cpu}`;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
