import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  const keepAll = () => true;

  it('keeps what it read for its TTL, then reads again', async () => {
    const cache = new TtlCache<string, number>(1000);
    const read = jest.fn().mockResolvedValueOnce(1).mockResolvedValueOnce(2);
    await expect(cache.getOrLoad('a', read, keepAll)).resolves.toBe(1);
    jest.advanceTimersByTime(999);
    await expect(cache.getOrLoad('a', read, keepAll)).resolves.toBe(1);
    jest.advanceTimersByTime(1);
    expect(cache.get('a')).toBeUndefined();
    await expect(cache.getOrLoad('a', read, keepAll)).resolves.toBe(2);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('shares one read between concurrent loads of a key', async () => {
    const cache = new TtlCache<string, number>(1000);
    let answer!: (value: number) => void;
    const read = jest.fn(() => new Promise<number>((resolve) => (answer = resolve)));
    const both = Promise.all([cache.load('a', read, keepAll), cache.load('a', read, keepAll)]);
    answer(7);
    await expect(both).resolves.toEqual([7, 7]);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('does not keep what keep() refuses, nor anything with a TTL of 0', async () => {
    const refusing = new TtlCache<string, number | null>(1000);
    await refusing.load(
      'a',
      () => Promise.resolve(null),
      (v) => v !== null,
    );
    expect(refusing.get('a')).toBeUndefined();
    const none = new TtlCache<string, number>(0);
    await none.load('a', () => Promise.resolve(1), keepAll);
    expect(none.get('a')).toBeUndefined();
  });

  it('does not keep a read that was in flight while something was deleted', async () => {
    const cache = new TtlCache<string, number>(1000);
    let answer!: (value: number) => void;
    const pending = cache.load('a', () => new Promise((resolve) => (answer = resolve)), keepAll);
    cache.deleteWhere(() => true);
    answer(1);
    await expect(pending).resolves.toBe(1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('deletes one key or those that match, and drops the oldest entry when full', async () => {
    const cache = new TtlCache<string, number>(1000, 2);
    await cache.load('a', () => Promise.resolve(1), keepAll);
    await cache.load('b', () => Promise.resolve(2), keepAll);
    await cache.load('c', () => Promise.resolve(3), keepAll);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
    cache.delete('b');
    expect(cache.get('b')).toBeUndefined();
    cache.deleteWhere((_, value) => value === 3);
    expect(cache.get('c')).toBeUndefined();
  });

  it('answers and keeps nothing while suspended; forgets what it kept, and keeps again, on resume', async () => {
    const cache = new TtlCache<string, number>(1000);
    await cache.load('a', () => Promise.resolve(1), keepAll);
    cache.suspend();
    expect(cache.get('a')).toBeUndefined();
    const read = jest.fn().mockResolvedValue(2);
    await expect(cache.getOrLoad('a', read, keepAll)).resolves.toBe(2);
    await expect(cache.getOrLoad('a', read, keepAll)).resolves.toBe(2);
    expect(read).toHaveBeenCalledTimes(2);
    cache.resume();
    expect(cache.get('a')).toBeUndefined();
    await cache.load('a', () => Promise.resolve(3), keepAll);
    expect(cache.get('a')).toBe(3);
  });

  it('does not keep a read that was in flight while it was resumed (it may have missed a deletion)', async () => {
    const cache = new TtlCache<string, number>(1000);
    cache.suspend();
    let answer!: (value: number) => void;
    const pending = cache.load('a', () => new Promise((resolve) => (answer = resolve)), keepAll);
    cache.resume();
    answer(1);
    await expect(pending).resolves.toBe(1);
    expect(cache.get('a')).toBeUndefined();
  });
});
