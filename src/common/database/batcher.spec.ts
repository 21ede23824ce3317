import { Batcher, ItemFailed, retryAlone } from './batcher';

describe('Batcher', () => {
  it('runs a call alone at once, and calls made while its batch runs together in the next', async () => {
    const batches: number[][] = [];
    const batcher = new Batcher<number, number>(
      async (items) => {
        batches.push(items);
        await new Promise((r) => setTimeout(r, 10));
        return items.map((i) => i * 2);
      },
      { maxBatch: 3, maxInFlight: 1 },
    );
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => batcher.add(i)));
    expect(results).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('rejects every call of a batch that throws, and only the item that failed alone', async () => {
    const failing = new Batcher<number, number>(() => Promise.reject(new Error('down')), {
      maxBatch: 10,
      maxInFlight: 1,
    });
    await expect(failing.add(1)).rejects.toThrow('down');
    const partial = new Batcher<number, number>(
      (items) =>
        Promise.resolve(items.map((i) => (i === 2 ? new ItemFailed(new Error('two')) : i))),
      { maxBatch: 10, maxInFlight: 1 },
    );
    const [one, two] = await Promise.allSettled([partial.add(1), partial.add(2)]);
    expect(one).toEqual({ status: 'fulfilled', value: 1 });
    expect(two).toMatchObject({ status: 'rejected', reason: new Error('two') });
  });
});

describe('retryAlone', () => {
  it('runs the batch once when it succeeds, and each item alone when it fails', async () => {
    const runs: number[][] = [];
    const run = retryAlone<number>((items) => {
      runs.push(items);
      return items.includes(2)
        ? Promise.reject(new Error(`bad ${items.join(',')}`))
        : Promise.resolve();
    });
    expect(await run([1, 3])).toEqual([]);
    const results = await run([1, 2, 3]);
    expect(runs).toEqual([[1, 3], [1, 2, 3], [1], [2], [3]]);
    expect(results[0]).toBeUndefined();
    expect(results[1]).toEqual(new ItemFailed(new Error('bad 2')));
    expect(results[2]).toBeUndefined();
  });

  it('fails a batch of one with its own error', async () => {
    const run = retryAlone<number>(() => Promise.reject(new Error('down')));
    await expect(run([1])).rejects.toThrow('down');
  });
});
