import { ScrapeCache } from './scrape-cache';

describe('ScrapeCache', () => {
  it('reads once per time-to-live, whoever asks', async () => {
    let reads = 0;
    const cache = new ScrapeCache(() => Promise.resolve(++reads), 5000, 1000);
    expect(await Promise.all([cache.get(0), cache.get(10), cache.get(4999)])).toEqual([1, 1, 1]);
    expect(await cache.get(5000)).toBe(2);
    expect(reads).toBe(2);
  });

  it('does not keep a failed read: the next scrape reads again', async () => {
    let reads = 0;
    const cache = new ScrapeCache(
      () => (++reads === 1 ? Promise.reject(new Error('redis down')) : Promise.resolve(reads)),
      5000,
      1000,
    );
    await expect(cache.get(0)).rejects.toThrow('redis down');
    expect(await cache.get(1)).toBe(2);
  });

  it('gives up on a read that does not answer in time', async () => {
    const cache = new ScrapeCache(() => new Promise<number>(() => undefined), 5000, 20);
    await expect(cache.get(0)).rejects.toThrow('no answer within 20 ms');
  });
});
