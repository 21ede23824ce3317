import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Batcher } from '../../common/database/batcher';
import { LeasedRows, NOT_LEASED_AT } from '../../common/database/leased-rows';
import { isMissingParentRow } from '../../common/database/mysql-errors';
import { AppConfig } from '../../config/app-config';
import {
  type AttemptDecision,
  type AttemptFacts,
  type WebhookNotification,
  type WebhookVariables,
  decideAttempt,
} from './webhook-delivery-rules';
import type { SendOutcome } from './webhook-sender';
import type { WebhookAction, WebhookStatus } from './webhook-subscription.entity';

/**
 * How long a claim owns a message: longer than an attempt can take (the sender gives up after
 * 10 s) plus recording it. A worker that dies mid-attempt leaves the message to others after this.
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

interface MessageRow {
  id: number | string;
  account_id: number;
  subscription_id: number;
  outbox_id: number | string;
  action: WebhookAction;
  resource_id: number;
  variables: string | WebhookVariables;
  attempts: number;
  target: string;
  subscription_status: WebhookStatus;
  failing_since: Date | null;
  api_key_encrypted: string;
}

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

/** A delivered attempt that changes nothing but its message and log: recorded in batches. */
interface Delivered {
  message: ClaimedMessage;
  attempt: Attempt;
  decision: AttemptDecision;
}

const INSERT_DELIVERY = `INSERT INTO webhook_deliveries
  (subscription_id, account_id, outbox_id, action, resource_id, attempt, attempted_at,
   duration_ms, status_code, error, outcome, next_retry_at)
  VALUES`;
const DELIVERY_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** The parameters of an attempt's line in the delivery log (DELIVERY_ROW). */
function deliveryRow(
  message: ClaimedMessage,
  { attemptedAt, sent }: Attempt,
  decision: AttemptDecision,
): unknown[] {
  return [
    message.subscriptionId,
    message.accountId,
    message.outboxId,
    message.action,
    message.resourceId,
    message.attempts + 1,
    attemptedAt,
    Math.max(0, Math.round(sent.durationMs)),
    sent.statusCode,
    sent.error === null ? null : sent.error.slice(0, 255),
    decision.outcome,
    decision.nextAttemptAt,
  ];
}

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

  private readonly recordings = new Batcher<Delivered, Recorded>(
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
          : await this.readClaimed(this.dataSource, unique, lease);
    } else {
      claimed = await this.dataSource.transaction(async (tx) => {
        const { lease, claimed: mine } = await this.leases.claimSome(tx, unique, now, due);
        if (mine.length === 0) return new Map<string, ClaimedMessage>();
        return this.readClaimed(tx, mine, lease);
      });
    }
    // A duplicate id in one batch (two jobs of one message): the first job has it, the other not.
    return ids.map((id) => {
      const message = claimed.get(id);
      claimed.delete(id);
      return message ?? null;
    });
  }

  /** What sending the claimed messages needs: their rows with the subscription's and the account's. */
  private async readClaimed(
    manager: DataSource | EntityManager,
    ids: string[],
    lease: Date,
  ): Promise<Map<string, ClaimedMessage>> {
    const rows: MessageRow[] = await manager.query(
      `SELECT m.id, m.account_id, m.subscription_id, m.outbox_id, m.action, m.resource_id,
              m.variables, m.attempts, s.target, s.status AS subscription_status, s.failing_since,
              a.api_key_encrypted
         FROM webhook_messages m
         JOIN webhook_subscriptions s ON s.id = m.subscription_id
         JOIN accounts a ON a.id = m.account_id
        WHERE m.id IN (?) AND m.leased_until = ?`,
      [ids, lease],
    );
    const claimed = new Map<string, ClaimedMessage>();
    for (const row of rows) {
      const id = String(row.id);
      claimed.set(id, {
        id,
        lease,
        accountId: row.account_id,
        subscriptionId: row.subscription_id,
        outboxId: String(row.outbox_id),
        action: row.action,
        resourceId: row.resource_id,
        // MariaDB's JSON is text to the driver; MySQL's is parsed already.
        variables:
          typeof row.variables === 'string'
            ? (JSON.parse(row.variables) as WebhookVariables)
            : row.variables,
        attempts: row.attempts,
        target: row.target,
        subscriptionStatus: row.subscription_status,
        failingSince: row.failing_since,
        apiKeyEncrypted: row.api_key_encrypted,
      });
    }
    return claimed;
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
  private async recordDelivered(items: Delivered[]): Promise<Recorded[]> {
    try {
      return await this.dataSource.transaction(async (tx) => {
        const held = await this.leases.lockHeld(
          tx,
          items.map((item) => item.message),
        );
        await tx.query(
          `${INSERT_DELIVERY} ${items.map(() => DELIVERY_ROW).join(', ')}`,
          items.flatMap((item) => deliveryRow(item.message, item.attempt, item.decision)),
        );
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
    { attemptedAt, finishedAt, sent }: Attempt,
  ): Promise<Recorded> {
    let subscription = { status: message.subscriptionStatus, failingSince: message.failingSince };
    if (sent.kind === 'retry') {
      const rows: { status: WebhookStatus; failing_since: Date | null }[] = await tx.query(
        'SELECT status, failing_since FROM webhook_subscriptions WHERE id = ? FOR UPDATE',
        [message.subscriptionId],
      );
      if (rows.length === 0) return { kind: 'gone' };
      subscription = { status: rows[0].status, failingSince: rows[0].failing_since };
    }
    const attemptsMade = message.attempts + 1;
    const decision = this.decide(message, { attemptedAt, finishedAt, sent }, subscription);

    await tx.query(
      `${INSERT_DELIVERY} ${DELIVERY_ROW}`,
      deliveryRow(message, { attemptedAt, finishedAt, sent }, decision),
    );
    const held = await this.leases.finish(
      tx,
      message,
      finishedAt,
      'status = ?, attempts = ?, next_attempt_at = COALESCE(?, next_attempt_at)',
      [decision.messageStatus, attemptsMade, decision.nextAttemptAt],
    );

    const { streak } = decision;
    if (streak.kind === 'clear') {
      await tx.query(
        `UPDATE webhook_subscriptions SET failing_since = NULL, updated_at = ?
          WHERE id = ? AND status = 'active' AND failing_since IS NOT NULL`,
        [finishedAt, message.subscriptionId],
      );
    } else if (streak.kind === 'start') {
      await tx.query(
        `UPDATE webhook_subscriptions SET failing_since = ?, updated_at = ?
          WHERE id = ? AND failing_since IS NULL`,
        [streak.failingSince, finishedAt, message.subscriptionId],
      );
    } else if (streak.kind === 'disable') {
      await tx.query(
        `UPDATE webhook_subscriptions
            SET status = 'disabled', failing_since = ?, disabled_at = ?, updated_at = ?
          WHERE id = ?`,
        [streak.failingSince, streak.disabledAt, finishedAt, message.subscriptionId],
      );
    }
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
