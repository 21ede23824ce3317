import { MIN_TEXT_CONTRAST, contrastRatio, relativeLuminance } from './contrast';

describe('contrastRatio (WCAG 2.x)', () => {
  it.each([
    ['#000000', '#ffffff', 21],
    ['#ffffff', '#000000', 21],
    ['#ffffff', '#ffffff', 1],
    ['#123456', '#123456', 1],
    ['#767676', '#ffffff', 4.54],
    ['#777777', '#ffffff', 4.48],
    ['#ffcc00', '#ffffff', 1.51],
    ['#0000ff', '#ffffff', 8.59],
    ['#ff0000', '#ffffff', 4],
    ['#008000', '#ffffff', 5.14],
    ['#1A73E8', '#FFFFFF', 4.51],
  ])('%s against %s is %p:1', (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
  });

  it('passes #767676 on white and refuses #777777 (the AA boundary for text)', () => {
    expect(contrastRatio('#767676', '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(MIN_TEXT_CONTRAST);
    expect(MIN_TEXT_CONTRAST).toBe(4.5);
  });

  it('gives black 0 and white 1 as luminance, either case', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBeCloseTo(1, 12);
  });

  it.each(['red', '#fff', '#ggg000', 'ffffff', '#ffffff ', ''])('refuses %p', (value) => {
    expect(() => contrastRatio(value, '#ffffff')).toThrow(RangeError);
  });
});
