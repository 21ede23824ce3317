import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('drops the entry set longest ago when a new key comes in full, never for a known key', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    map.set('a', 3);
    expect([...map]).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
    map.set('c', 4);
    expect([...map]).toEqual([
      ['b', 2],
      ['c', 4],
    ]);
    expect(map.size).toBe(2);
  });
});
