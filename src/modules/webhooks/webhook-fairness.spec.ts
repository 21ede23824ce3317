import {
  type Admission,
  DEFER_BASE_MS,
  DEFER_MAX_MS,
  type DeliveryKeys,
  FLOWING_MS,
  type InFlight,
  SLOW_FORGET_MS,
  WAIT_MS,
  WebhookFairness,
  targetOrigin,
} from './webhook-fairness';

const LIMITS = { perTarget: 3, perSlowTarget: 1, perAccount: 5 };
const SHOP = 1;
const OTHER_SHOP = 2;
const TARPIT = 'https://tarpit.example';
const HEALTHY = 'https://healthy.example';

const keys = (target: string, accountId = SHOP): DeliveryKeys => ({ target, accountId });

function admitted(admission: Admission): InFlight {
  if (admission.kind !== 'admitted') throw new Error(`not admitted: ${JSON.stringify(admission)}`);
  return admission.delivery;
}

/** Lets `count` deliveries through at once (each must be). */
async function fill(fairness: WebhookFairness, to: DeliveryKeys, count: number) {
  const deliveries: InFlight[] = [];
  for (let i = 0; i < count; i++) deliveries.push(admitted(await fairness.admit(to)));
  return deliveries;
}

/** Whether the promise has settled (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

describe('WebhookFairness: limits of deliveries in flight, per receiver and per account', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2030-06-03T12:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  /** Jitter at its lowest: a deferral waits half its step. */
  const fairness = (random = () => 0) => new WebhookFairness(LIMITS, random);

  it("lets deliveries to a receiver through up to its limit, then puts the next off (reason 'target')", async () => {
    const gate = fairness();
    await fill(gate, keys(TARPIT), LIMITS.perTarget);
    await expect(gate.admit(keys(TARPIT))).resolves.toEqual({
      kind: 'deferred',
      reason: 'target',
      delayMs: DEFER_BASE_MS / 2,
    });
    expect(gate.inFlight(keys(TARPIT))).toEqual({ target: LIMITS.perTarget, account: 3 });
    // Another receiver of the same account, and another account's delivery to it, are not held up.
    admitted(await gate.admit(keys(HEALTHY)));
    admitted(await gate.admit(keys(HEALTHY, OTHER_SHOP)));
  });

  it("counts an account's deliveries across its receivers, and puts off past its limit (reason 'account')", async () => {
    const gate = fairness();
    const origins = ['a', 'b', 'c', 'd', 'e'].map((name) => `https://${name}.example`);
    for (const origin of origins) admitted(await gate.admit(keys(origin)));
    await expect(gate.admit(keys('https://f.example'))).resolves.toMatchObject({
      kind: 'deferred',
      reason: 'account',
    });
    // Another account's deliveries to the same receivers go through.
    for (const origin of origins) admitted(await gate.admit(keys(origin, OTHER_SHOP)));
  });

  it('puts a job off longer each time it is put off again: 250 ms doubled, at most 5 s, jittered down to half', async () => {
    const delays = async (random: number) => {
      const gate = fairness(() => random);
      await fill(gate, keys(TARPIT), LIMITS.perTarget);
      const out: number[] = [];
      for (const deferrals of [0, 1, 2, 3, 4, 5, 20, 2000]) {
        const admission = await gate.admit(keys(TARPIT), deferrals);
        out.push(admission.kind === 'deferred' ? admission.delayMs : -1);
      }
      return out;
    };
    expect(await delays(0)).toEqual([125, 250, 500, 1000, 2000, 2500, 2500, 2500]);
    expect(await delays(0.999_999)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
    expect(DEFER_MAX_MS).toBe(5000);
  });

  it('makes a receiver that timed out slow: its limit drops to 1 until an attempt to it ends in time', async () => {
    const gate = fairness();
    const [first, second, third] = await fill(gate, keys(TARPIT), 3);
    expect(gate.finished(first, { timedOut: true })).toBe('slowed');
    expect(gate.isSlow(TARPIT)).toBe(true);
    // Two still in flight, over the slow limit: the next waits behind them, put off.
    await expect(gate.admit(keys(TARPIT))).resolves.toMatchObject({
      kind: 'deferred',
      reason: 'slow-target',
    });
    expect(gate.finished(second, { timedOut: true })).toBeNull(); // slow already
    await expect(gate.admit(keys(TARPIT))).resolves.toMatchObject({ reason: 'slow-target' });

    // An answer in time (whatever it says) makes it healthy again.
    expect(gate.finished(third, { timedOut: false })).toBe('recovered');
    expect(gate.isSlow(TARPIT)).toBe(false);
    await fill(gate, keys(TARPIT), LIMITS.perTarget);
  });

  it('forgets a slow receiver not tried for 10 minutes', async () => {
    const gate = fairness();
    const [probe] = await fill(gate, keys(TARPIT), 1);
    gate.finished(probe, { timedOut: true });
    jest.advanceTimersByTime(SLOW_FORGET_MS - 1);
    expect(gate.isSlow(TARPIT)).toBe(true);
    jest.advanceTimersByTime(2);
    expect(gate.isSlow(TARPIT)).toBe(false);
    await fill(gate, keys(TARPIT), LIMITS.perTarget);
  });

  it('lets a delivery wait, briefly and in turn, for a place under a limit that is flowing', async () => {
    const gate = fairness();
    const [done, ...busy] = await fill(gate, keys(HEALTHY), LIMITS.perTarget);
    gate.finished(done, { timedOut: false }); // answered in time just now: flowing
    busy.push(admitted(await gate.admit(keys(HEALTHY))));

    const first = gate.admit(keys(HEALTHY));
    const second = gate.admit(keys(HEALTHY));
    expect([await settled(first), await settled(second)]).toEqual([false, false]);
    gate.finished(busy[0], { timedOut: false });
    expect([await settled(first), await settled(second)]).toEqual([true, false]);
    admitted(await first);
    // Nothing else frees a place within the wait: put off.
    jest.advanceTimersByTime(WAIT_MS);
    await expect(second).resolves.toMatchObject({ kind: 'deferred', reason: 'target' });
    expect(gate.inFlight(keys(HEALTHY)).target).toBe(LIMITS.perTarget);
  });

  it('does not wait for a limit that is not flowing: a receiver that has not answered lately, a slow one', async () => {
    const gate = fairness();
    // Never answered (a tarpit as its first deliveries hang): put off at once.
    await fill(gate, keys(TARPIT), LIMITS.perTarget);
    expect(await settled(gate.admit(keys(TARPIT)))).toBe(true);

    // Answered, but longer ago than FLOWING_MS.
    const [done] = await fill(gate, keys(HEALTHY, OTHER_SHOP), LIMITS.perTarget);
    gate.finished(done, { timedOut: false });
    admitted(await gate.admit(keys(HEALTHY, OTHER_SHOP)));
    jest.advanceTimersByTime(FLOWING_MS + 1);
    const late = gate.admit(keys(HEALTHY, OTHER_SHOP));
    expect(await settled(late)).toBe(true);
    await expect(late).resolves.toMatchObject({ kind: 'deferred', reason: 'target' });

    // Slow, even though another attempt just ended: put off at once.
    const slowGate = fairness();
    const [timedOut, inTime] = await fill(slowGate, keys(TARPIT), 2);
    slowGate.finished(timedOut, { timedOut: true });
    const waiting = slowGate.admit(keys(TARPIT));
    expect(await settled(waiting)).toBe(true);
    await expect(waiting).resolves.toMatchObject({ reason: 'slow-target' });
    slowGate.finished(inTime, { timedOut: false });
  });

  it('frees the place of a delivery cancelled before its attempt, without changing its receiver', async () => {
    const gate = fairness();
    const [first] = await fill(gate, keys(TARPIT), 1);
    gate.finished(first, { timedOut: true });
    const [second] = await fill(gate, keys(TARPIT), 1);
    gate.cancelled(second);
    expect(gate.isSlow(TARPIT)).toBe(true);
    expect(gate.inFlight(keys(TARPIT))).toEqual({ target: 0, account: 0 });
    admitted(await gate.admit(keys(TARPIT)));
  });
});

describe('targetOrigin', () => {
  it.each([
    ['https://hooks.example.com/a/b?token=secret', 'https://hooks.example.com'],
    ['https://Hooks.Example.com:443/x', 'https://hooks.example.com'],
    ['http://127.0.0.1:8080/x', 'http://127.0.0.1:8080'],
    ['https://[2001:db8::1]:8443/', 'https://[2001:db8::1]:8443'],
    ['not a url', 'not a url'],
  ])('%s counts as %s', (target, origin) => {
    expect(targetOrigin(target)).toBe(origin);
  });
});
