import { type Ran, medianRun } from './run-all';

const run = (value: number, baseline: number, status = 0): Ran => ({
  name: 'booking',
  status,
  seconds: 100,
  result: {
    bench: 'booking',
    title: 'bookings',
    settings: {},
    finishedAt: '2026-11-26T00:00:00Z',
    figures: [
      {
        label: 'service ÷ bare',
        value,
        unit: 'bookings/s',
        baseline: { label: 'bare', value: baseline },
        target: { op: '>=', value: 60 },
      },
    ],
  },
});

describe('bench/run-all medianRun (BENCH_RUNS)', () => {
  it('reports each figure and its baseline as the median of the runs, every run named', () => {
    const merged = medianRun([run(500, 900), run(420, 1000), run(610, 800)]);
    expect(merged.status).toBe(0);
    expect(merged.seconds).toBe(300);
    expect(merged.result!.figures[0].value).toBe(500);
    expect(merged.result!.figures[0].baseline!.value).toBe(900);
    expect(merged.result!.notes).toEqual([
      'Medians of 3 runs.',
      'service ÷ bare, run by run: 500 bookings/s, 420 bookings/s, 610 bookings/s.',
    ]);
  });

  it('tells apart two figures of one label by their place (one with a target, one with a baseline)', () => {
    const twice = (value: number, baseline: number): Ran => {
      const one = run(value, baseline);
      const [figure] = one.result!.figures;
      one.result!.figures = [
        { ...figure, baseline: undefined },
        { ...figure, target: undefined },
      ];
      return one;
    };
    const merged = medianRun([twice(500, 900), twice(420, 1000), twice(610, 800)]);
    expect(merged.result!.figures.map((f) => [f.value, f.baseline?.value])).toEqual([
      [500, undefined],
      [500, 900],
    ]);
  });

  it('is a failure when any run failed', () => {
    const merged = medianRun([run(500, 900), run(420, 1000, 1)]);
    expect(merged.status).toBe(1);
  });

  it('is the run itself when there is one', () => {
    const one = run(500, 900);
    expect(medianRun([one])).toBe(one);
  });
});
