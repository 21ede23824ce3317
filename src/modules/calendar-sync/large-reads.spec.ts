import { LargeReads } from './large-reads';

describe('LargeReads: one large read of a process at a time', () => {
  const live = () => new AbortController().signal;

  it('lets one in, the others in turn, in the order they came', async () => {
    const reads = new LargeReads();
    const order: string[] = [];
    const leaveA = await reads.enter(live());
    const b = reads.enter(live()).then((leave) => (order.push('b'), leave));
    const c = reads.enter(live()).then((leave) => (order.push('c'), leave));
    await Promise.resolve();
    expect(order).toEqual([]);
    leaveA();
    // Leaving twice hands on nothing more.
    leaveA();
    const leaveB = await b;
    expect(order).toEqual(['b']);
    leaveB();
    (await c)();
    expect(order).toEqual(['b', 'c']);
    // Open again: the next enters at once.
    (await reads.enter(live()))();
  });

  it('stops waiting when the signal fires, and the turn skips it', async () => {
    const reads = new LargeReads();
    const leaveA = await reads.enter(live());
    const timedOut = new AbortController();
    const waiting = reads.enter(timedOut.signal);
    const next = reads.enter(live());
    timedOut.abort(new DOMException('timed out', 'TimeoutError'));
    await expect(waiting).rejects.toMatchObject({ name: 'TimeoutError' });
    leaveA();
    (await next)();
    const aborted = new AbortController();
    aborted.abort(new Error('stopping'));
    await expect(reads.enter(aborted.signal)).rejects.toThrow('stopping');
  });
});
