import fc from 'fast-check';
import { resourceBusy, saturatedSpans, withExtraBusy } from './resource-usage';
import { mostUsesDuring } from '../../../test/support/resource-model';
import type { Span } from './working-time';

const span = (from: number, until: number): Span => ({ from, until });
const meets = (spans: Span[], s: Span) => spans.some((b) => b.from < s.until && s.from < b.until);

describe('saturatedSpans', () => {
  it('is empty while fewer uses than units overlap', () => {
    expect(saturatedSpans({ quantity: 3, uses: [span(0, 10), span(5, 15)] })).toEqual([]);
  });

  it('is where the quantity is reached, half-open at both ends', () => {
    const uses = [span(0, 10), span(5, 15), span(8, 20)];
    expect(saturatedSpans({ quantity: 2, uses })).toEqual([span(5, 15)]);
    expect(saturatedSpans({ quantity: 3, uses })).toEqual([span(8, 10)]);
  });

  it('joins saturation that only changes hands at an instant', () => {
    const uses = [span(0, 10), span(10, 20)];
    expect(saturatedSpans({ quantity: 1, uses })).toEqual([span(0, 20)]);
  });

  it('ignores empty spans', () => {
    expect(saturatedSpans({ quantity: 1, uses: [span(5, 5)] })).toEqual([]);
  });

  it('adds the busy of several resources to every calendar', () => {
    const busy = resourceBusy([
      { quantity: 1, uses: [span(0, 10)] },
      { quantity: 2, uses: [span(20, 30)] },
    ]);
    expect(busy).toEqual([span(0, 10)]);
    const out = withExtraBusy(
      new Map([
        [1, [span(50, 60)]],
        [2, []],
      ]),
      busy,
    );
    expect(out.get(1)).toEqual([span(50, 60), span(0, 10)]);
    expect(out.get(2)).toEqual([span(0, 10)]);
  });

  it('lets a new use in exactly when no instant of it would pass the quantity', () => {
    const use = fc
      .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 12 }))
      .map(([from, length]) => span(from, from + length));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.array(use, { maxLength: 12 }),
        use,
        (quantity, uses, asked) => {
          const fits = !meets(saturatedSpans({ quantity, uses }), asked);
          expect(fits).toBe(mostUsesDuring([...uses, asked], asked) <= quantity);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
