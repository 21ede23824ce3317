import type { Job, Queue } from 'bull';
import type { Logger } from 'pino';
import { Metrics } from '../../common/metrics/metrics';
import { AppConfig } from '../../config/app-config';
import { WebhookDeliveriesProcessor } from './webhook-deliveries.processor';
import { decideAttempt } from './webhook-delivery-rules';
import type { DeliveryJobData, WebhookDeliveryQueue } from './webhook-delivery-queue';
import { DEFER_BASE_MS, WebhookFairness } from './webhook-fairness';
import type { WebhookAttempts } from './webhook-attempts';
import type { ClaimedMessage, WebhookMessageRepository } from './webhook-message.repository';
import type { SendOutcome, WebhookSender } from './webhook-sender';
import type { WebhookSigningKeys } from './webhook-signing-keys';

const TARGET = 'https://tarpit.example/hooks/1';
const LIMITS = { perTarget: 2, perSlowTarget: 1, perAccount: 10 };
const POLICY = AppConfig.fromEnvironment({}).webhooks;

function claimedMessage(): ClaimedMessage {
  return {
    id: '7',
    lease: new Date('2030-06-03T12:00:15Z'),
    accountId: 3,
    subscriptionId: 11,
    outboxId: '99',
    action: 'scheduled',
    resourceId: 42,
    variables: [
      ['action', 'scheduled'],
      ['id', 42],
    ],
    attempts: 4,
    target: TARGET,
    subscriptionStatus: 'active',
    failingSince: null,
    enterpriseId: null,
    apiKeyEncrypted: 'encrypted',
  };
}

/**
 * The processor with its MySQL, Redis and HTTP sides replaced by recorders, and the real fairness
 * limits: what a delivery job does when its receiver has no place for it, and when it has one.
 */
function processorWith(sent: SendOutcome) {
  const message = claimedMessage();
  const messages = {
    claim: jest.fn(() => Promise.resolve(message)),
    putOff: jest.fn(() => Promise.resolve(true)),
    release: jest.fn(() => Promise.resolve(true)),
    record: jest.fn((claimed: ClaimedMessage, attempt: { attemptedAt: Date; finishedAt: Date }) =>
      Promise.resolve({
        kind: 'recorded' as const,
        decision: decideAttempt({
          kind: sent.kind,
          attemptsMade: claimed.attempts + 1,
          ...attempt,
          subscription: { status: 'active', failingSince: null },
          policy: POLICY,
        }),
      }),
    ),
  };
  const deliveries = { add: jest.fn(() => Promise.resolve()) };
  const sender = { send: jest.fn(() => Promise.resolve(sent)) };
  const fairness = new WebhookFairness(LIMITS, () => 0.5);
  const metrics = new Metrics();
  const logger = { debug: jest.fn(), info: jest.fn(), warn: jest.fn() };
  const processor = new WebhookDeliveriesProcessor(
    {} as Queue<DeliveryJobData>,
    deliveries as unknown as WebhookDeliveryQueue,
    messages as unknown as WebhookAttempts,
    messages as unknown as WebhookMessageRepository,
    sender as unknown as WebhookSender,
    { keyOf: () => 'api-key' } as unknown as WebhookSigningKeys,
    fairness,
    logger as unknown as Logger,
    metrics,
  );
  const job = (data: DeliveryJobData) =>
    ({ data, discard: jest.fn(() => Promise.resolve()) }) as unknown as Job<DeliveryJobData>;
  return { processor, message, messages, deliveries, sender, fairness, metrics, logger, job };
}

describe('WebhookDeliveriesProcessor: fairness', () => {
  it("puts a delivery off when its receiver's limit is full: no attempt, its claim given back with its attempts, a delayed job of a new id", async () => {
    const { processor, message, messages, deliveries, sender, fairness, metrics, job } =
      processorWith({ kind: 'delivered', statusCode: 200, error: null, durationMs: 5 });
    for (let i = 0; i < LIMITS.perTarget; i++) {
      await fairness.admit({ target: 'https://tarpit.example', accountId: 5 });
    }

    const before = Date.now();
    await expect(processor.deliver(job({ messageId: '7', deferrals: 2 }))).resolves.toBe(
      'deferred',
    );

    expect(sender.send).not.toHaveBeenCalled();
    expect(messages.record).not.toHaveBeenCalled();
    // 250 ms doubled twice (the third time), jittered to three quarters of that.
    const delayMs = DEFER_BASE_MS * 4 * 0.75;
    expect(messages.putOff).toHaveBeenCalledTimes(1);
    const [putOff, dueAt] = messages.putOff.mock.calls[0] as unknown as [ClaimedMessage, Date];
    expect(putOff).toBe(message);
    expect(dueAt.getTime()).toBeGreaterThanOrEqual(before + delayMs);
    expect(dueAt.getTime()).toBeLessThanOrEqual(Date.now() + delayMs);
    expect(deliveries.add).toHaveBeenCalledWith([
      { messageId: '7', jobId: `wh:7:4:p${dueAt.getTime()}`, delayMs, deferrals: 3 },
    ]);
    expect((await metrics.webhookDeferrals.get()).values).toEqual([
      { value: 1, labels: { reason: 'target' } },
    ]);
    // The delivery put off holds no place: the receiver's two are the others'.
    expect(fairness.inFlight({ target: 'https://tarpit.example', accountId: 3 })).toEqual({
      target: LIMITS.perTarget,
      account: 0,
    });
  });

  it('adds no job when the claim was lost meanwhile', async () => {
    const { processor, messages, deliveries, fairness, job } = processorWith({
      kind: 'delivered',
      statusCode: 200,
      error: null,
      durationMs: 5,
    });
    for (let i = 0; i < LIMITS.perTarget; i++) {
      await fairness.admit({ target: 'https://tarpit.example', accountId: 5 });
    }
    messages.putOff.mockResolvedValueOnce(false);
    await expect(processor.deliver(job({ messageId: '7' }))).resolves.toBe('lease-lost');
    expect(deliveries.add).not.toHaveBeenCalled();
  });

  it('counts an attempt against its receiver while it is in flight, and makes the receiver slow when it times out', async () => {
    const timedOut: SendOutcome = {
      kind: 'retry',
      statusCode: null,
      error: 'headers timeout after 5000 ms',
      durationMs: 5003,
      timeout: 'headers',
    };
    const { processor, messages, sender, fairness, logger, job } = processorWith(timedOut);
    const keys = { target: 'https://tarpit.example', accountId: 3 };
    let during: unknown;
    sender.send.mockImplementation(() => {
      during = fairness.inFlight(keys);
      return Promise.resolve(timedOut);
    });
    await expect(processor.deliver(job({ messageId: '7' }))).rejects.toThrow(
      'headers timeout after 5000 ms; retry in',
    );
    expect(messages.record).toHaveBeenCalledTimes(1);
    expect(during).toEqual({ target: 1, account: 1 });
    expect(fairness.inFlight(keys)).toEqual({ target: 0, account: 0 });
    expect(fairness.isSlow(keys.target)).toBe(true);
    expect(logger.info).toHaveBeenCalledWith(
      { target: 'https://tarpit.example', error: 'headers timeout after 5000 ms' },
      'webhook receiver slow: fewer deliveries in flight to it until it answers in time',
    );
  });
});
