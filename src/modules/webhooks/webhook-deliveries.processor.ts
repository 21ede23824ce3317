import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { type BeforeApplicationShutdown, Inject } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import type { Logger } from 'pino';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { Metrics } from '../../common/metrics/metrics';
import { QueueName } from '../../common/queues/queue-names';
import { variablesObject, webhookIdOf } from './webhook-delivery-rules';
import {
  DELIVER_JOB,
  type DeliveryJobData,
  RetryLaterError,
  WebhookDeliveryQueue,
} from './webhook-delivery-queue';
import type { WebhookDeferralReason } from '../../common/metrics/metrics';
import { type InFlight, WebhookFairness, targetOrigin } from './webhook-fairness';
import { type Attempt, type Recorded, WebhookAttempts } from './webhook-attempts';
import { type ClaimedMessage, WebhookMessageRepository } from './webhook-message.repository';
import { signatureHeaders, webhookBody } from './webhook-payload';
import { WebhookSender, type SendOutcome } from './webhook-sender';
import { WebhookSigningKeys } from './webhook-signing-keys';

/** Deliveries in flight per worker: attempts mostly wait on receivers (shares: WebhookFairness). */
export const DELIVERY_CONCURRENCY = 100;

/** Bull's Job#moveToDelayed (lib/job.js, untyped): moves a job only while this worker locks it. */
type MovableJob = Job<DeliveryJobData> & { moveToDelayed(timestamp: number): Promise<void> };

/** What a job that ends normally did, kept as the job's return value. */
export type DeliveryJobResult =
  'delivered' | 'not-claimed' | 'skipped' | 'deferred' | 'gone' | 'lease-lost';

/**
 * Worker: one attempt per run of a job. The job claims its message (a duplicate ends as
 * `not-claimed`), signs and sends it, records the attempt in one transaction, then: delivered, it
 * completes; retrying, it throws a RetryLaterError whose delay the `webhook` backoff hands to Bull;
 * failed or stopped, it is discarded and throws, so Bull shows why and never runs it again.
 *
 * A delivery with no place under its limits (WebhookFairness) is put off: its claim given back, its
 * attempts unchanged (the ladder counts real attempts), a delayed job of a new id queued; this job
 * ends as `deferred`, freeing its slot.
 *
 * An unexpected error (MySQL unreachable…) gives the claim back and throws: Bull tries again
 * shortly, the ladder unmoved. A recording that fails after the send means a second send: delivery
 * is at least once, and receivers drop repeats by `webhook-id`.
 */
@Processor(QueueName.WebhookDeliveries)
export class WebhookDeliveriesProcessor implements BeforeApplicationShutdown {
  constructor(
    @InjectQueue(QueueName.WebhookDeliveries) private readonly queue: Queue<DeliveryJobData>,
    private readonly deliveries: WebhookDeliveryQueue,
    private readonly attempts: WebhookAttempts,
    private readonly messages: WebhookMessageRepository,
    private readonly sender: WebhookSender,
    private readonly keys: WebhookSigningKeys,
    private readonly fairness: WebhookFairness,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly metrics: Metrics,
  ) {}

  /**
   * A graceful stop lets the attempts in flight finish and be recorded: the queue stops taking jobs
   * and waits for its active ones here, before the shutdown hooks close the sender and the MySQL
   * pool (Nest would close the sender first: this module is nearer the root than the queue's).
   *
   * Bull fetches a worker's next job in the step that completes its last one, so a job completed as
   * the stop began may have brought one that will never run. Such jobs, still locked by this
   * worker, go back to `delayed`, due at once, instead of staying active until their lock runs out
   * (30 s, then Bull's stalled-job check). Deferrals complete many jobs at once: a common race.
   */
  async beforeApplicationShutdown(): Promise<void> {
    try {
      await this.queue.pause(true); // takes no new job; resolves once the running ones have ended
      const active = (await this.queue.getActive()) as MovableJob[];
      // The script moves only a job whose lock is this worker's (another's, or none: left alone).
      await Promise.all(active.map((job) => job.moveToDelayed(0).catch(() => undefined)));
    } catch (err) {
      this.logger.warn({ err }, 'webhook jobs fetched while stopping not handed back');
    }
    await this.queue.close();
  }

  @Process({ name: DELIVER_JOB, concurrency: DELIVERY_CONCURRENCY })
  async deliver(job: Job<DeliveryJobData>): Promise<DeliveryJobResult> {
    const message = await this.attempts.claim(job.data.messageId);
    if (message === null) return 'not-claimed';
    if (message.subscriptionStatus !== 'active') {
      // Disabled since the fan-out: no notifications until its owner re-enables it.
      await this.messages.skip(message);
      this.metrics.countWebhookDelivery('skipped');
      return 'skipped';
    }

    const deferrals = job.data.deferrals ?? 0;
    const admission = await this.fairness.admit(
      { target: targetOrigin(message.target), accountId: message.accountId },
      deferrals,
    );
    if (admission.kind === 'deferred') {
      return this.putOff(message, deferrals, admission.reason, admission.delayMs);
    }

    let attempt: Attempt;
    try {
      attempt = await this.send(message);
    } catch (e) {
      this.fairness.cancelled(admission.delivery);
      await this.release(message);
      throw e;
    }
    this.attempted(admission.delivery, attempt);
    let recorded: Recorded;
    try {
      recorded = await this.attempts.record(message, attempt);
    } catch (e) {
      this.logger.warn(
        { err: e, messageId: message.id },
        'webhook attempt not recorded; it will be sent again',
      );
      await this.release(message);
      throw e;
    }
    if (recorded.kind !== 'recorded') return recorded.kind;

    const { decision } = recorded;
    this.metrics.countWebhookDelivery(
      decision.streak.kind === 'disable' ? 'disabled' : decision.outcome,
    );
    const log = {
      messageId: message.id,
      subscriptionId: message.subscriptionId,
      attempt: message.attempts + 1,
      outcome: decision.outcome,
      statusCode: attempt.sent.statusCode,
      error: attempt.sent.error,
    };
    if (decision.streak.kind === 'disable') {
      this.logger.warn(log, 'webhook subscription disabled after failing for the disable window');
    } else {
      this.logger.debug(log, 'webhook attempt');
    }
    switch (decision.outcome) {
      case 'delivered':
        return 'delivered';
      case 'retrying':
        throw new RetryLaterError(
          decision.retryDelayMs ?? 0,
          `${describe(attempt.sent)}; retry in ${decision.retryDelayMs} ms`,
        );
      case 'failed':
      case 'stopped':
        await job.discard();
        throw new Error(`${decision.outcome}: ${describe(attempt.sent)}`);
    }
  }

  private async send(message: ClaimedMessage): Promise<Attempt> {
    const variables = variablesObject(message.variables);
    // An enterprise's subscription hears from all its members: the body names the member.
    if (message.enterpriseId !== null) variables.userId = message.accountId;
    const body = webhookBody(variables);
    const attemptedAt = new Date();
    const headers = signatureHeaders({
      apiKey: this.keys.keyOf(message.apiKeyEncrypted),
      webhookId: webhookIdOf(message.outboxId, message.subscriptionId),
      timestamp: attemptedAt,
      body,
    });
    const sent = await this.sender.send(message.target, body, headers);
    return { attemptedAt, finishedAt: new Date(), sent };
  }

  /** Puts the delivery off: its claim given back, due when a delayed job runs; this one ends. */
  private async putOff(
    message: ClaimedMessage,
    deferrals: number,
    reason: WebhookDeferralReason,
    delayMs: number,
  ): Promise<DeliveryJobResult> {
    const dueAt = new Date(Date.now() + delayMs);
    let held: boolean;
    try {
      held = await this.messages.putOff(message, dueAt);
    } catch (e) {
      await this.release(message);
      throw e;
    }
    if (!held) return 'lease-lost';
    await this.deliveries.add([
      {
        messageId: message.id,
        // An id no earlier job of the message has (those Bull keeps would make the add a no-op).
        jobId: `wh:${message.id}:${message.attempts}:p${dueAt.getTime()}`,
        delayMs,
        deferrals: deferrals + 1,
      },
    ]);
    this.metrics.countWebhookDeferral(reason);
    this.logger.debug({ messageId: message.id, reason, delayMs }, 'webhook delivery put off');
    return 'deferred';
  }

  /** Ends the delivery's count in the fairness limits, and says when its receiver changed pace. */
  private attempted(delivery: InFlight, { sent }: Attempt): void {
    const change = this.fairness.finished(delivery, { timedOut: sent.timeout !== undefined });
    if (change === null) return;
    this.logger.info(
      { target: delivery.keys.target, error: sent.error },
      change === 'slowed'
        ? 'webhook receiver slow: fewer deliveries in flight to it until it answers in time'
        : 'webhook receiver answers in time again',
    );
  }

  /** Best effort: when MySQL is what failed, the lease simply runs out. */
  private async release(message: ClaimedMessage): Promise<void> {
    try {
      await this.messages.release(message);
    } catch (err) {
      this.logger.warn({ err, messageId: message.id }, 'webhook message claim not released');
    }
  }
}

function describe(sent: SendOutcome): string {
  return sent.error ?? `HTTP ${sent.statusCode}`;
}
