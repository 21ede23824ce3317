import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flameGraph, summarise } from './profile-summary';

/**
 * The profile summary of issue 29 (bench/profile-summary.ts) on a real V8 CPU profile: a process
 * that formats dates with luxon for a while after its start must be summarised as mostly luxon,
 * its start (loading luxon) left out.
 */
describe('bench/profile-summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'profile-summary-'));
  let profile: string;

  beforeAll(() => {
    const script = join(dir, 'work.js');
    writeFileSync(
      script,
      `const { DateTime } = require(${JSON.stringify(require.resolve('luxon'))});
       setTimeout(() => {
         const until = Date.now() + 600;
         let out = 0;
         while (Date.now() < until)
           out += DateTime.fromMillis(out).setZone('America/New_York').toISO().length;
       }, 10);`,
    );
    execFileSync(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, script]);
    profile = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!,
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('attributes self time to package groups, the start left out', () => {
    const summary = summarise(profile);
    const luxon = summary.groups.find((g) => g.name === 'luxon');
    expect(luxon?.share).toBeGreaterThan(0.3);
    expect(summary.groups[0].name).not.toBe('our code');
    expect(summary.busyMs).toBeGreaterThan(300);
    expect(summary.busyMs).toBeLessThan(2_000);
    const shares = summary.groups.reduce((sum, g) => sum + g.share, 0);
    expect(shares).toBeCloseTo(1, 5);
    expect(summary.packages.map((p) => p.name)).toContain('luxon');
  });

  it('draws a flame graph whose frames name the groups, escaped for SVG', () => {
    const svg = flameGraph(profile, 'a <test> & more');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('a &lt;test&gt; &amp; more');
    expect(svg).toMatch(/<title>luxon: [^<]*\(luxon\): \d+ ms/);
    expect(svg).not.toContain('run_main_module');
  });
});
