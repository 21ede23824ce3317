import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Batcher } from '../../common/database/batcher';
import { LeasedRows, NOT_LEASED_AT } from '../../common/database/leased-rows';
import { isMissingParentRow } from '../../common/database/mysql-errors';
import { AppConfig } from '../../config/app-config';
import { readClaimedMessages } from './claimed-webhook-messages';
import { type LoggedAttempt, logAttempts } from './webhook-delivery-log';
import {
  type AttemptDecision,
  type AttemptFacts,
  type WebhookNotification,
  type WebhookVariables,
  decideAttempt,
} from './webhook-delivery-rules';
import { changeFailureStreak, lockFailureStreak } from './webhook-failure-streak';
import type { SendOutcome } from './webhook-sender';
import type { WebhookAction, WebhookStatus } from './webhook-subscription.entity';

/**
 * How long a claim owns a message: longer than an attempt can take (the sender gives up after
 * 10 s at most) plus a short wait for a place under the fairness limits (WAIT_MS) and recording it.
 * A worker that dies mid-attempt leaves the message to others after this.
 */
export const LEASE_MS = 15_000;

/**
 * A message due this little in the future may be claimed already: Bull's delayed jobs are timed by
 * the clock of whichever worker promotes them, which may run slightly ahead of the one that
 * scheduled the retry. Without it, such a job would find the message not due and end its chain,
 * leaving the message to the sweeper.
 */
export const DUE_TOLERANCE_MS = 1000;

/** A message claimed for one attempt, with what sending it needs. */
export interface ClaimedMessage {
  id: string;
  /** The claim's token: the lease's end, exactly as written. */
  lease: Date;
  accountId: number;
  subscriptionId: number;
  outboxId: string;
  action: WebhookAction;
  resourceId: number;
  variables: WebhookVariables;
  /** Attempts made before this one. */
  attempts: number;
  target: string;
  subscriptionStatus: WebhookStatus;
  failingSince: Date | null;
  /** The enterprise of an enterprise's subscription (its key signs; the member is named). */
  enterpriseId: number | null;
  apiKeyEncrypted: string;
}

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
  /** Another job took the message over after this one's lease ran out: the attempt is logged only. */
  | { kind: 'lease-lost'; decision: AttemptDecision };

/** An event to fan out, with the subscriptions it goes to. */
export interface EventMessages {
  outboxId: string;
  accountId: number;
  notification: WebhookNotification;
  subscriptionIds: number[];
}

/** Most messages one claim, or one recording of deliveries, takes together. */
const CLAIM_BATCH = 100;
const RECORD_BATCH = 200;

/**
 * The webhook_messages table, in SQL written by hand: these statements run for every delivery, and
 * each is one round trip. Times are the worker's clock (the queue's delays are too), never NOW().
 */
@Injectable()
export class WebhookMessages {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /**
   * Writes one pending message per subscription for each event, with one INSERT (the unique key
   * on (outbox_id, subscription_id) makes a second fan-out of the same event write nothing), then
   * answers the events' messages that are still pending, new or not.
   */
  async createForEvents(events: EventMessages[]): Promise<string[]> {
    const now = new Date();
    const params: unknown[] = [];
    for (const { outboxId, accountId, notification, subscriptionIds } of events) {
      const variables = JSON.stringify(notification.variables);
      for (const subscriptionId of subscriptionIds)
        params.push(
          accountId,
          subscriptionId,
          outboxId,
          notification.action,
          notification.resourceId,
          variables,
          now,
          now,
          now,
        );
    }
    const count = params.length / 9;
    // IGNORE: an existing (event, subscription) row, or a subscription deleted since it was read
    // (its foreign key refuses the row), are skipped.
    const inserted: { affectedRows: number; insertId: number | string } =
      await this.dataSource.query(
        `INSERT IGNORE INTO webhook_messages
           (account_id, subscription_id, outbox_id, action, resource_id, variables, status,
            attempts, next_attempt_at, leased_until, created_at, updated_at)
         VALUES ${Array(count).fill("(?, ?, ?, ?, ?, ?, 'pending', 0, ?, NULL, ?, ?)").join(', ')}`,
        params,
      );
    // Every row new (the usual first fan-out): they are pending, with consecutive ids from the
    // first (InnoDB gives a multi-row insert consecutive ids), so there is nothing to read back.
    if (inserted.affectedRows === count) {
      const first = BigInt(inserted.insertId);
      return Array.from({ length: count }, (_, i) => String(first + BigInt(i)));
    }
    const rows: { id: number | string }[] = await this.dataSource.query(
      "SELECT id FROM webhook_messages WHERE outbox_id IN (?) AND status = 'pending' ORDER BY id",
      [events.map((e) => e.outboxId)],
    );
    return rows.map((row) => String(row.id));
  }

  /**
   * Claims the message for one attempt: it must be pending, due, and not leased by a job whose
   * attempt is in flight. Of two jobs of one message (a duplicate, a job revived by the sweeper
   * while the first was only late) at most one sends; the other gets null and completes without
   * sending. Null too when the message is done or gone.
   *
   * Claims made together are one batch (see claimBatch): under load, a few statements for many
   * jobs; a claim alone is one UPDATE, whose affected rows decide, and one SELECT.
   */
  claim(messageId: string): Promise<ClaimedMessage | null> {
    return this.claims.add(messageId);
  }

  /** Besides its lease, a message must be pending and due (parameter: the due limit). */
  private readonly leases = new LeasedRows({
    table: 'webhook_messages',
    claimable: "status = 'pending' AND next_attempt_at <= ?",
    leaseMs: LEASE_MS,
  });

  private readonly claims = new Batcher<string, ClaimedMessage | null>(
    (ids) => this.claimBatch(ids),
    { maxBatch: CLAIM_BATCH, maxInFlight: 3 },
  );

  /** Delivered attempts that change nothing but their message and log: recorded in batches. */
  private readonly recordings = new Batcher<LoggedAttempt, Recorded>(
    (items) => this.recordDelivered(items),
    { maxBatch: RECORD_BATCH, maxInFlight: 3 },
  );

  private async claimBatch(ids: string[]): Promise<(ClaimedMessage | null)[]> {
    const now = new Date();
    const due = [new Date(now.getTime() + DUE_TOLERANCE_MS)];
    const unique = [...new Set(ids)];
    let claimed: Map<string, ClaimedMessage>;
    if (unique.length === 1) {
      const lease = await this.leases.claimOne(this.dataSource, unique[0], now, due);
      claimed =
        lease === null
          ? new Map<string, ClaimedMessage>()
          : await readClaimedMessages(this.dataSource, unique, lease);
    } else {
      // Several: the rows claimable are locked, claimed and read in one transaction.
      claimed = await this.dataSource.transaction(async (tx) => {
        const { lease, claimed: mine } = await this.leases.claimSome(tx, unique, now, due);
        if (mine.length === 0) return new Map<string, ClaimedMessage>();
        return readClaimedMessages(tx, mine, lease);
      });
    }
    // A duplicate id in one batch (two jobs of one message): the first job has it, the other not.
    return ids.map((id) => {
      const message = claimed.get(id);
      claimed.delete(id);
      return message ?? null;
    });
  }

  /** Ends a claimed message without an attempt: its subscription is disabled. */
  async skip(message: ClaimedMessage): Promise<void> {
    await this.leases.finish(this.dataSource, message, new Date(), "status = 'skipped'");
  }

  /** Gives a claim back without an attempt (the job failed before sending), so a retry can claim. */
  async release(message: ClaimedMessage): Promise<void> {
    await this.leases.release(this.dataSource, message);
  }

  /**
   * Gives a claim back without an attempt, the message put off for fairness until `dueAt`, when its
   * delayed job runs (see WebhookFairness): its attempts, and so its retry ladder, are unchanged,
   * and its due time is the new job's, so that the sweeper, which revives messages due for longer
   * than its grace, does not take it for lost while that job waits. Answers whether the claim held.
   */
  async putOff(message: ClaimedMessage, dueAt: Date, at = new Date()): Promise<boolean> {
    return this.leases.finish(this.dataSource, message, at, 'next_attempt_at = ?', [dueAt]);
  }

  /**
   * Records an attempt in one transaction: its line in the delivery log, the message's new state
   * and the subscription's failure streak (see decideAttempt). A failure that counts locks the
   * subscription's row first, so that parallel failures start one streak and disable it once.
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
   * Records delivered attempts that change nothing else (the usual case) together: their lines in
   * the delivery log with one INSERT and their messages with one UPDATE, in one transaction. The
   * messages still leased by their attempt are locked first (in id order, as every batch locks);
   * one whose lease ran out, taken by another job since, is `lease-lost` as in recordOne. When
   * the batch fails (a subscription deleted meanwhile, a deadlock), each is recorded on its own.
   */
  private async recordDelivered(items: LoggedAttempt[]): Promise<Recorded[]> {
    try {
      return await this.dataSource.transaction(async (tx) => {
        const held = await this.leases.lockHeld(
          tx,
          items.map((item) => item.message),
        );
        await logAttempts(tx, items);
        const mine = items.filter((_, i) => held[i]).map((item) => item.message.id);
        if (mine.length > 0) {
          await this.leases.finishLocked(
            tx,
            mine,
            new Date(),
            "status = 'delivered', attempts = attempts + 1",
          );
        }
        return items.map(({ decision }, i): Recorded =>
          held[i] ? { kind: 'recorded', decision } : { kind: 'lease-lost', decision },
        );
      });
    } catch {
      return Promise.all(items.map(({ message, attempt }) => this.recordOne(message, attempt)));
    }
  }

  private async recordOne(message: ClaimedMessage, attempt: Attempt): Promise<Recorded> {
    try {
      return await this.dataSource.transaction((tx) => this.recordIn(tx, message, attempt));
    } catch (e) {
      if (isMissingParentRow(e)) return { kind: 'gone' };
      throw e;
    }
  }

  private async recordIn(
    tx: EntityManager,
    message: ClaimedMessage,
    attempt: Attempt,
  ): Promise<Recorded> {
    const subscription =
      attempt.sent.kind === 'retry'
        ? await lockFailureStreak(tx, message.subscriptionId)
        : { status: message.subscriptionStatus, failingSince: message.failingSince };
    if (subscription === null) return { kind: 'gone' };
    const decision = this.decide(message, attempt, subscription);

    await logAttempts(tx, [{ message, attempt, decision }]);
    const held = await this.leases.finish(
      tx,
      message,
      attempt.finishedAt,
      'status = ?, attempts = ?, next_attempt_at = COALESCE(?, next_attempt_at)',
      [decision.messageStatus, message.attempts + 1, decision.nextAttemptAt],
    );
    await changeFailureStreak(tx, message.subscriptionId, decision.streak, attempt.finishedAt);
    return held ? { kind: 'recorded', decision } : { kind: 'lease-lost', decision };
  }

  /**
   * Messages whose job seems lost: pending, due for longer than the grace, and not leased by an
   * attempt in flight. Their due time is moved to now, both to name the new job (so that its id
   * differs from any job Bull still keeps) and so that the next sweep leaves them alone for another
   * grace period. Runs `add` before the rows are released; SKIP LOCKED lets several workers sweep.
   */
  async sweep(
    graceMs: number,
    limit: number,
    add: (messages: { id: string; attempts: number; sweptAt: Date }[]) => Promise<void>,
  ): Promise<number> {
    const now = new Date();
    return this.dataSource.transaction(async (tx) => {
      const rows: { id: number | string; attempts: number }[] = await tx.query(
        `SELECT id, attempts FROM webhook_messages
          WHERE status = 'pending' AND next_attempt_at < ? AND ${NOT_LEASED_AT}
          ORDER BY next_attempt_at
          LIMIT ?
          FOR UPDATE SKIP LOCKED`,
        [new Date(now.getTime() - graceMs), now, limit],
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((row) => String(row.id));
      await tx.query(
        'UPDATE webhook_messages SET next_attempt_at = ?, updated_at = ? WHERE id IN (?)',
        [now, now, ids],
      );
      await add(rows.map((row) => ({ id: String(row.id), attempts: row.attempts, sweptAt: now })));
      return rows.length;
    });
  }
}
