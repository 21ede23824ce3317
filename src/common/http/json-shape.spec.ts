import {
  MAX_JSON_DEPTH,
  MAX_JSON_ITEMS,
  MAX_JSON_KEYS,
  MAX_JSON_VALUES,
  jsonShape,
} from './json-shape';

const message = (text: string) => jsonShape(text).problem?.message;

const keys = (n: number, from = 0) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${from + i}`, i]));
const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

const DEEP = `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`;
const KEYS = `An object in the body has more than ${MAX_JSON_KEYS} keys.`;
const ITEMS = `An array in the body has more than ${MAX_JSON_ITEMS} items.`;
const VALUES = `The JSON body has more than ${MAX_JSON_VALUES} values.`;

/** Values as the bounds count them: every object, array and scalar, the body included. */
function countValues(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((n: number, v) => n + countValues(v), 0);
  if (typeof value === 'object' && value !== null)
    return 1 + Object.values(value).reduce((n: number, v) => n + countValues(v), 0);
  return 1;
}

describe('jsonShape', () => {
  it.each([
    ['nothing', '{}'],
    ['scalars', '"x"'],
    [`${MAX_JSON_DEPTH} levels`, nestedArrays(MAX_JSON_DEPTH)],
    [`${MAX_JSON_KEYS} keys`, JSON.stringify(keys(MAX_JSON_KEYS))],
    [`${MAX_JSON_ITEMS} items`, JSON.stringify(Array.from({ length: MAX_JSON_ITEMS }, () => 0))],
    ['empty arrays and objects', '[[],{},[[]],{"a":[]}]'],
    [
      'structure inside strings, which does not count',
      JSON.stringify({ a: `${'{['.repeat(100)}${',:'.repeat(5000)}"\\` }),
    ],
    ['whitespace everywhere', ' \n{ "a" :\t[ 1 , 2 ,\r\n 3 ] } '],
  ])('takes %s', (_, text) => {
    expect(jsonShape(text).problem).toBeUndefined();
  });

  it.each([
    [`${MAX_JSON_DEPTH + 1} levels`, nestedArrays(MAX_JSON_DEPTH + 1), DEEP],
    ['100,000 levels', nestedArrays(100_000), DEEP],
    ['objects nested too deep', `${'{"a":'.repeat(MAX_JSON_DEPTH + 1)}1${'}'.repeat(40)}`, DEEP],
    [`${MAX_JSON_KEYS + 1} keys`, JSON.stringify(keys(MAX_JSON_KEYS + 1)), KEYS],
    ['80,000 keys deep inside', JSON.stringify({ a: [{ b: keys(80_000) }] }), KEYS],
    [
      `${MAX_JSON_ITEMS + 1} items`,
      JSON.stringify(Array.from({ length: MAX_JSON_ITEMS + 1 }, () => 'x')),
      ITEMS,
    ],
    [
      `${MAX_JSON_ITEMS + 1} objects`,
      JSON.stringify(Array.from({ length: MAX_JSON_ITEMS + 1 }, () => ({}))),
      ITEMS,
    ],
    [
      'too many values in all',
      JSON.stringify(
        Array.from({ length: Math.ceil(MAX_JSON_VALUES / MAX_JSON_KEYS) }, (_, i) =>
          keys(MAX_JSON_KEYS, i * MAX_JSON_KEYS),
        ),
      ),
      VALUES,
    ],
    [
      'a truncated body past a bound',
      `{"a":${nestedArrays(MAX_JSON_DEPTH + 1).slice(0, 40)}`,
      DEEP,
    ],
  ])('refuses %s', (_, text, expected) => {
    expect(message(text)).toBe(expected);
  });

  it('counts values as the bounds say, to the last one', () => {
    // The body, its array, and objects of keys: exactly MAX_JSON_VALUES values, then one more.
    const objects = (MAX_JSON_VALUES - 2) / (MAX_JSON_KEYS + 1);
    const within = Array.from({ length: Math.floor(objects) }, (_, i) =>
      keys(MAX_JSON_KEYS, i * MAX_JSON_KEYS),
    );
    const rest = MAX_JSON_VALUES - countValues(within);
    const exactly = [...within, ...Array.from({ length: rest }, () => 0)];
    expect(countValues(exactly)).toBe(MAX_JSON_VALUES);
    expect(message(JSON.stringify(exactly))).toBeUndefined();
    expect(message(JSON.stringify([...exactly, 0]))).toBe(VALUES);
  });

  it.each([
    ['""', 0],
    ['{"abc":"de"}', 3],
    [JSON.stringify({ a: 'x'.repeat(20) }), 20],
    ['["\\"\\\\"]', 4],
    ['["a\\\\\\"b"]', 6],
  ])('measures the longest string of %s as written', (text, longest) => {
    expect(jsonShape(text).longestString).toBe(longest);
  });

  it.each(['', '{', ']]]]}}}', '"unterminated', '"\\', '{"a":1,,,,}', ':::,,,', '[,,,,]'])(
    'reads text that is not JSON without failing: %j',
    (text) => {
      expect(() => jsonShape(text)).not.toThrow();
    },
  );

  it('reads a body at the size limit in linear time, backslashes and quotes included', () => {
    for (const text of [
      `"${'\\'.repeat(1024 * 1024)}"`,
      `"${'\\\\\\"'.repeat(200_000)}"`,
      '"'.repeat(1024 * 1024),
    ]) {
      const start = process.hrtime.bigint();
      jsonShape(text);
      expect(Number(process.hrtime.bigint() - start) / 1e6).toBeLessThan(100);
    }
  });
});
