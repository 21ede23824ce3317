import { formatCents, isMoney, toCents } from './money';

describe('money', () => {
  it.each([
    [10, true, 1000],
    [10.5, true, 1050],
    [0.29, true, 29],
    [0, true, 0],
    ['10', true, 1000],
    ['10.5', true, 1050],
    ['10.50', true, 1050],
    ['0.07', true, 7],
    ['9999999.99', true, 999999999],
  ] as const)('%p is money worth %p cents', (value, valid, cents) => {
    expect(isMoney(value)).toBe(valid);
    expect(toCents(value)).toBe(cents);
  });

  it.each([
    -1,
    10.555,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    10_000_000,
    42_949_672.96,
    '-1',
    '10.555',
    '1e3',
    ' 10',
    '10.',
    '.5',
    '',
    '10000000.00',
    null,
    true,
    [],
    {},
  ])('%p is not money', (value) => {
    expect(isMoney(value)).toBe(false);
  });

  it.each([
    [0, '0.00'],
    [7, '0.07'],
    [1050, '10.50'],
    [100000, '1000.00'],
    [-250, '-2.50'],
  ])('formats %p cents as %p', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });
});
