import { Histogram, Registry } from 'prom-client';
import { type HttpDurationSeries, HttpDurations } from './http-durations';
import { LATENCY_BUCKETS } from './metrics';

describe('HttpDurations: scraped as prom-client scrapes its Histogram', () => {
  const observations: [string, string, string, number][] = [
    ['GET', '/api/v1/me', '200', 0.0012],
    ['GET', '/api/v1/me', '200', 0.005],
    ['GET', '/api/v1/me', '401', 0.3],
    ['POST', '/api/v1/appointments', '200', 12.5],
    ['GET', '/api/v1/me', '200', 0.07],
    ['GET', '(unmatched)', '404', 0.0001],
    ['GET', '/api/v1/"odd"\\route', '200', 1],
  ];

  const both = () => {
    const ours = new Registry();
    const theirs = new Registry();
    const durations = new HttpDurations(
      'http_test_seconds',
      'Help "text"\\.',
      LATENCY_BUCKETS,
      ours,
    );
    const histogram = new Histogram({
      name: 'http_test_seconds',
      help: 'Help "text"\\.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [theirs],
    });
    // Series kept across a reset, as the HTTP hooks keep theirs.
    const kept = new Map<string, HttpDurationSeries>();
    const observe = () => {
      for (const [method, route, status, seconds] of observations) {
        const key = `${method} ${route} ${status}`;
        let series = kept.get(key);
        if (!series) kept.set(key, (series = durations.seriesOf(method, route, status)));
        durations.observe(series, seconds);
        histogram.labels(method, route, status).observe(seconds);
      }
    };
    return { ours, theirs, durations, histogram, observe };
  };

  it('the same text and JSON', async () => {
    const { ours, theirs, observe } = both();
    observe();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });

  it('the same after a reset, and observations after it', async () => {
    const { ours, theirs, observe } = both();
    observe();
    ours.resetMetrics();
    theirs.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
    observe();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
