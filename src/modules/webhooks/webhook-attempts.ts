import { Injectable } from '@nestjs/common';
import { Batcher } from '../../common/database/batcher';
import { isMissingParentRow } from '../../common/database/mysql-errors';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { AppConfig } from '../../config/app-config';
import { type AttemptDecision, type AttemptFacts, decideAttempt } from './webhook-delivery-rules';
import { type LoggedAttempt, WebhookDeliveryRepository } from './webhook-delivery.repository';
import { type ClaimedMessage, WebhookMessageRepository } from './webhook-message.repository';
import type { SendOutcome } from './webhook-sender';
import { WebhookSubscriptionRepository } from './webhook-subscription.repository';

/** One attempt as the sender reported it, timed. */
export interface Attempt {
  attemptedAt: Date;
  finishedAt: Date;
  sent: SendOutcome;
}

/** What recording an attempt came to. */
export type Recorded =
  | { kind: 'recorded'; decision: AttemptDecision }
  /** The subscription (and with it the message) was deleted meanwhile: nothing to record. */
  | { kind: 'gone' }
  /** Another job took the message after this one's lease ran out: the attempt is logged only. */
  | { kind: 'lease-lost'; decision: AttemptDecision };

/** A delivery job's two writes, claim and record: those made together are batched (see Batcher). */
@Injectable()
export class WebhookAttempts {
  private readonly claims = new Batcher<string, ClaimedMessage | null>(
    (ids) => this.claimBatch(ids),
    { maxBatch: 100, maxInFlight: 3 },
  );

  /** Delivered attempts that change nothing but their message and log: recorded in batches. */
  private readonly recordings = new Batcher<LoggedAttempt, Recorded>(
    (items) => this.recordDelivered(items),
    { maxBatch: 200, maxInFlight: 3 },
  );

  constructor(
    private readonly work: UnitOfWork,
    private readonly messages: WebhookMessageRepository,
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly config: AppConfig,
  ) {}

  /**
   * Claims the message for one attempt if pending, due and not leased. Of two jobs of a message (a
   * duplicate, a job revived while the first was only late) at most one sends; the other gets null,
   * as for a message done or gone. A claim alone is one UPDATE, whose affected rows decide, and one
   * SELECT; claims made together are locked, claimed and read in one transaction.
   */
  claim(messageId: string): Promise<ClaimedMessage | null> {
    return this.claims.add(messageId);
  }

  private async claimBatch(ids: string[]): Promise<(ClaimedMessage | null)[]> {
    const now = new Date();
    const unique = [...new Set(ids)];
    const claimed =
      unique.length === 1
        ? await this.messages.claimOne(unique[0], now)
        : await this.work.run(null, (tx) => this.messages.claimSome(tx, unique, now));
    // A duplicate id in one batch (two jobs of one message): the first job has it.
    return ids.map((id) => {
      const message = claimed.get(id);
      claimed.delete(id);
      return message ?? null;
    });
  }

  /**
   * Records an attempt in one transaction: its log line, the message's state and the subscription's
   * failure streak. A failure that counts locks the subscription's row first, so that parallel
   * failures start one streak and disable it once.
   */
  async record(message: ClaimedMessage, attempt: Attempt): Promise<Recorded> {
    if (attempt.sent.kind === 'delivered') {
      const decision = this.decide(message, attempt, {
        status: message.subscriptionStatus,
        failingSince: message.failingSince,
      });
      if (decision.streak.kind === 'unchanged') {
        return this.recordings.add({ message, attempt, decision });
      }
    }
    return this.recordOne(message, attempt);
  }

  private decide(
    message: ClaimedMessage,
    { attemptedAt, finishedAt, sent }: Attempt,
    subscription: AttemptFacts['subscription'],
  ): AttemptDecision {
    return decideAttempt({
      kind: sent.kind,
      attemptsMade: message.attempts + 1,
      attemptedAt,
      finishedAt,
      subscription,
      policy: this.config.webhooks,
    });
  }

  /**
   * Records delivered attempts that change nothing else (the usual case) together: one INSERT of
   * log lines and one UPDATE of messages, in one transaction, after locking the messages (one whose
   * lease ran out is `lease-lost`). When the batch fails (a subscription deleted meanwhile, a
   * deadlock), each is recorded on its own.
   */
  private async recordDelivered(items: LoggedAttempt[]): Promise<Recorded[]> {
    try {
      return await this.work.run(null, async (tx) => {
        const held = await this.messages.lockHeld(
          tx,
          items.map((item) => item.message),
        );
        await this.deliveries.log(tx, items);
        const mine = items.filter((_, i) => held[i]).map((item) => item.message.id);
        if (mine.length > 0) await this.messages.finishDelivered(tx, mine, new Date());
        return items.map(({ decision }, i): Recorded =>
          held[i] ? { kind: 'recorded', decision } : { kind: 'lease-lost', decision },
        );
      });
    } catch {
      return Promise.all(items.map(({ message, attempt }) => this.recordOne(message, attempt)));
    }
  }

  private async recordOne(message: ClaimedMessage, attempt: Attempt): Promise<Recorded> {
    // The subscription's account; an enterprise's subscription has none.
    const accountId = message.enterpriseId === null ? message.accountId : null;
    try {
      return await this.work.run(accountId, async (tx): Promise<Recorded> => {
        const subscription =
          attempt.sent.kind === 'retry'
            ? await this.subscriptions.lockFailureStreak(tx, message.subscriptionId)
            : { status: message.subscriptionStatus, failingSince: message.failingSince };
        if (subscription === null) return { kind: 'gone' };
        const decision = this.decide(message, attempt, subscription);

        await this.deliveries.log(tx, [{ message, attempt, decision }]);
        const held = await this.messages.finishAttempt(tx, message, attempt.finishedAt, decision);
        await this.subscriptions.changeFailureStreak(
          tx,
          message.subscriptionId,
          decision.streak,
          attempt.finishedAt,
        );
        return held ? { kind: 'recorded', decision } : { kind: 'lease-lost', decision };
      });
    } catch (e) {
      if (isMissingParentRow(e)) return { kind: 'gone' };
      throw e;
    }
  }
}
