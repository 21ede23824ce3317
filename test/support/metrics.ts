/** One sample of a Prometheus text exposition: its value, or 0 when the series is absent. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  let total: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = (match[2] ?? '').split(/,(?=[a-zA-Z_]+=")/);
    if (wanted.every((label) => present.includes(label))) total = (total ?? 0) + Number(match[3]);
  }
  return total ?? 0;
}

/** Whether the exposition has a series `name` with these labels (whatever its value). */
export function hasSeries(text: string, name: string, labels: Record<string, string>): boolean {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  return text
    .split('\n')
    .some((line) => line.startsWith(`${name}{`) && wanted.every((label) => line.includes(label)));
}

/** GET `/metrics` of a process: status 200 and Prometheus' text format, or the test fails. */
export async function scrape(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/metrics`);
  if (res.status !== 200) throw new Error(`${baseUrl}/metrics → ${res.status}`);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return res.text();
}
