/**
 * npm run bench — every benchmark, one after the other, then one report: bench/REPORT.md.
 *
 * The benchmarks are the `bench:*` scripts of package.json (a new one is picked up without a change
 * here), in the order below and then by name. Each prints its figures and writes them as JSON in
 * bench/results/<name>.json (lib.ts writeResult); this runner collects them into a report with the
 * figures, their ratios to their baselines (a bare server measured in the same run, or 1 API
 * process for bench:scale) and to their targets, and the machine they ran on. A benchmark that fails
 * or writes no result is reported as such; the run then exits 1.
 *
 * BENCH_ONLY=http,booking runs some of them only (the report then has those only). The BENCH_*
 * variables (rounds, durations…) reach every benchmark and are written in the report.
 *
 * BENCH_RUNS=3 runs the whole list that many times, one pass after the other (so that a drift of
 * the machine weighs on every benchmark alike), and reports each figure as the median of the runs'
 * figures (its baseline likewise), with every run's value beside it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { createConnection } from 'mysql2/promise';
import { type BenchResult, type Figure, RESULTS_DIR, ROOT, redisOptions } from './lib';

const ORDER = ['http', 'availability', 'booking', 'webhooks', 'scale'];
const REPORT = join(ROOT, 'bench', 'REPORT.md');

export interface Ran {
  name: string;
  status: number | null;
  seconds: number;
  result: (BenchResult & { finishedAt: string }) | undefined;
}

async function main(): Promise<void> {
  const scripts = Object.keys(
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
  )
    .filter((name) => name.startsWith('bench:'))
    .map((name) => name.slice('bench:'.length));
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  const names = scripts
    .filter((name) => !only || only.includes(name))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  if (names.length === 0)
    throw new Error(`no bench:* script to run (BENCH_ONLY=${only?.join(',')})`);

  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
  const started = new Date();
  const machineFacts = await machineDetails();
  const passes: Ran[][] = [];
  for (let pass = 1; pass <= runs; pass++) {
    const ran: Ran[] = [];
    for (const name of names) {
      const file = join(RESULTS_DIR, `${name}.json`);
      rmSync(file, { force: true });
      console.log(`\n=== npm run bench:${name}${runs > 1 ? ` (run ${pass} of ${runs})` : ''}\n`);
      const t0 = Date.now();
      const run = spawnSync('npm', ['run', `bench:${name}`], {
        stdio: 'inherit',
        env: process.env,
      });
      const result = existsSync(file)
        ? (JSON.parse(readFileSync(file, 'utf8')) as Ran['result'])
        : undefined;
      ran.push({ name, status: run.status, seconds: (Date.now() - t0) / 1000, result });
    }
    passes.push(ran);
  }
  const ran = names.map((_, i) => medianRun(passes.map((p) => p[i])));
  writeFileSync(REPORT, report(started, machineFacts, ran));
  console.log(`\nReport written: ${REPORT}`);
  if (ran.some((r) => r.status !== 0 || !r.result)) process.exitCode = 1;
}

/**
 * One benchmark's runs as one: each figure the median of the runs that wrote it (baseline too), the
 * runs' values in a note. A run that failed or wrote nothing makes the whole failed.
 */
export function medianRun(runs: Ran[]): Ran {
  if (runs.length === 1) return runs[0];
  const failed = runs.find((r) => r.status !== 0 || !r.result);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  if (failed) return { ...failed, seconds };
  const results = runs.map((r) => r.result!);
  // A figure's values across the runs: the same label at the same place among those of that label
  // (two figures may share a label, one with a target and one with a baseline).
  const across = (first: Figure, at: number) => {
    const nth = results[0].figures.slice(0, at).filter((f) => f.label === first.label).length;
    return results.map((r) => r.figures.filter((f) => f.label === first.label)[nth]);
  };
  const figures = results[0].figures.map((first, at) => {
    const same = across(first, at).filter((f): f is Figure => f !== undefined);
    const baselines = same.map((f) => f.baseline?.value).filter((v) => v !== undefined);
    return {
      ...first,
      value: middle(same.map((f) => f.value)),
      baseline: first.baseline && { ...first.baseline, value: middle(baselines) },
    };
  });
  const notes = results[0].figures.map(
    (f, at) =>
      `${f.label}, run by run: ${across(f, at)
        .map((g) => (g ? value(g.value, g.unit) : 'none'))
        .join(', ')}.`,
  );
  return {
    name: runs[0].name,
    status: 0,
    seconds,
    result: {
      ...results[results.length - 1],
      figures,
      notes: [`Medians of ${runs.length} runs.`, ...notes, ...(results[0].notes ?? [])],
    },
  };
}

function middle(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function rank(name: string): number {
  const i = ORDER.indexOf(name);
  return i === -1 ? ORDER.length : i;
}

async function machineDetails(): Promise<[string, string][]> {
  const cpu = cpus();
  const facts: [string, string][] = [
    ['CPU', `${cpu.length} × ${cpu[0]?.model ?? 'unknown'}`],
    ['Memory', `${Math.round(totalmem() / 2 ** 30)} GiB`],
    ['Kernel', `${osType()} ${release()}`],
    ['Node.js', process.version],
    ['MySQL / MariaDB', await databaseVersion()],
    ['Redis', await redisVersion()],
    [
      'Load average at start',
      loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    ],
    ['Commit', commit()],
  ];
  const settings = Object.entries(process.env)
    .filter(([key]) => key.startsWith('BENCH_'))
    .map(([key, value]) => `${key}=${value}`);
  facts.push(['Settings', settings.length > 0 ? settings.join(' ') : "each benchmark's defaults"]);
  return facts;
}

async function databaseVersion(): Promise<string> {
  try {
    const connection = await createConnection({
      host: process.env.DB_HOST ?? '127.0.0.1',
      port: Number(process.env.DB_PORT ?? 3306),
      user: process.env.DB_USER ?? 'root',
      password: process.env.DB_PASSWORD ?? '',
    });
    try {
      const [rows] = await connection.query('SELECT VERSION() AS version');
      return (rows as { version: string }[])[0].version;
    } finally {
      await connection.end();
    }
  } catch (e) {
    return `unknown (${(e as Error).message})`;
  }
}

async function redisVersion(): Promise<string> {
  const redis = new Redis({
    ...redisOptions(process.env),
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  try {
    await redis.connect();
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } catch (e) {
    return `unknown (${(e as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    return `${sha.trim()}${dirty.trim() ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

/** The report: machine, a summary of every figure, then each benchmark's section. */
export function report(started: Date, facts: [string, string][], ran: Ran[]): string {
  const lines = [
    '# Benchmark report',
    '',
    `Written by \`npm run bench\` (bench/run-all.ts), started ${started.toISOString()}: every \`bench:*\` script of package.json in turn (${ran.map((r) => `\`bench:${r.name}\``).join(', ')}). Each benchmark's method is described at the top of its file and in docs/benchmarks.md. Ratios: to the baseline measured in the same run (a bare server, or 1 API process for bench:scale), and to the target.`,
    '',
    '## Machine',
    '',
    '| | |',
    '| --- | --- |',
    ...facts.map(([key, value]) => `| ${key} | ${value} |`),
    '',
    '## Summary',
    '',
    '| benchmark | figure | value | baseline | ratio to baseline | target | ratio to target | met |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of ran) {
    if (!r.result) {
      lines.push(`| bench:${r.name} | no result (exit ${r.status}) | | | | | | |`);
      continue;
    }
    for (const f of r.result.figures) lines.push(summaryRow(r.name, f));
  }
  for (const r of ran) {
    lines.push('', `## bench:${r.name}${r.result ? ` — ${r.result.title}` : ''}`, '');
    lines.push(
      `Exit status ${r.status}, ${Math.round(r.seconds)} s${r.result ? `, finished ${r.result.finishedAt}` : ''}.`,
    );
    if (!r.result) {
      lines.push('', 'It wrote no result (bench/results): see its output.');
      continue;
    }
    const settings = Object.entries(r.result.settings).map(([k, v]) => `${k} ${v}`);
    if (settings.length > 0) lines.push('', `Settings: ${settings.join(', ')}.`);
    lines.push('', '| figure | value | baseline | target |', '| --- | --- | --- | --- |');
    for (const f of r.result.figures)
      lines.push(
        `| ${f.label} | ${value(f.value, f.unit)} | ${f.baseline ? `${f.baseline.label}: ${value(f.baseline.value, f.unit)} (${ratio(f.value, f.baseline.value)})` : ''} | ${target(f)} |`,
      );
    for (const note of r.result.notes ?? []) lines.push('', note);
  }
  return `${lines.join('\n')}\n`;
}

function summaryRow(bench: string, f: Figure): string {
  const cells = [
    `bench:${bench}`,
    f.label,
    value(f.value, f.unit),
    f.baseline ? `${f.baseline.label}: ${value(f.baseline.value, f.unit)}` : '',
    f.baseline ? ratio(f.value, f.baseline.value) : '',
    f.target ? `${f.target.op === '>=' ? '≥' : '≤'} ${value(f.target.value, f.unit)}` : '',
    f.target && f.target.value !== 0 ? ratio(f.value, f.target.value) : '',
    f.target ? (met(f) ? 'yes' : '**NO**') : '',
  ];
  return `| ${cells.join(' | ')} |`;
}

function target(f: Figure): string {
  if (!f.target) return '';
  const bound = `${f.target.op === '>=' ? '≥' : '≤'} ${value(f.target.value, f.unit)}`;
  const share = f.target.value !== 0 ? `, ${ratio(f.value, f.target.value)} of it` : '';
  return `${bound}${share}: ${met(f) ? 'met' : '**NOT MET**'}`;
}

function met(f: Figure): boolean {
  return f.target!.op === '>=' ? f.value >= f.target!.value : f.value <= f.target!.value;
}

function value(v: number, unit: string): string {
  const digits = Math.abs(v) >= 100 || unit === 'count' ? 0 : 1;
  const text = v.toLocaleString('en-US', { maximumFractionDigits: digits });
  return unit === 'count' ? text : unit === '%' ? `${text}%` : `${text} ${unit}`;
}

function ratio(v: number, reference: number): string {
  return reference === 0 ? 'n/a' : `${((v / reference) * 100).toFixed(0)}%`;
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
