import { quantileMs } from './lib';

describe('quantileMs: latency quantiles to 10 µs, not whole milliseconds', () => {
  const sorted = (...ms: number[]) => Float64Array.from(ms).sort();

  it('reads the nearest rank of answers under a millisecond (autocannon’s histogram says 0)', () => {
    const times = sorted(0.412, 0.398, 0.455, 0.401, 0.987, 0.43, 0.42, 0.39, 0.41, 3.2);
    expect(quantileMs(times, 0.5)).toBe(0.41);
    expect(quantileMs(times, 0.99)).toBe(3.2);
    expect(quantileMs(times, 0.9)).toBe(0.99);
  });

  it('is 0 with no answers', () => {
    expect(quantileMs(sorted(), 0.5)).toBe(0);
  });
});
