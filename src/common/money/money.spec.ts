import { formatCents, isMoney, isPaidInFull, isSignedMoney, toCents, toSignedCents } from './money';

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

  it.each([
    [-10.5, -1050],
    ['-25.00', -2500],
    ['-0.07', -7],
    [40, 4000],
    ['9999999.99', 999999999],
    ['-9999999.99', -999999999],
    [-0.29, -29],
  ] as const)('%p is a signed amount worth %p cents', (value, cents) => {
    expect(isSignedMoney(value)).toBe(true);
    expect(toSignedCents(value)).toBe(cents);
  });

  it.each([
    '--1',
    '+1',
    '- 1',
    '-10.555',
    -10.555,
    '-10000000.00',
    -10_000_000,
    '-',
    Number.NaN,
    null,
  ])('%p is not a signed amount', (value) => {
    expect(isSignedMoney(value)).toBe(false);
  });
});

describe('isPaidInFull: the rule `paid` follows', () => {
  it.each([
    [0, 4000, false],
    [1500, 4000, false],
    [4000, 4000, true],
    [4500, 4000, true],
    [3999, 4000, false],
    [0, 0, false],
    [100, 0, true],
  ])('%p paid of %p due → %p', (paid, due, expected) => {
    expect(isPaidInFull(paid, due)).toBe(expected);
  });
});
