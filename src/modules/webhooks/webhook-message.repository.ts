import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { LeasedRows, NOT_LEASED_AT } from '../../common/database/leased-rows';
import type {
  AttemptDecision,
  WebhookNotification,
  WebhookVariables,
} from './webhook-delivery-rules';
import { WebhookMessage } from './webhook-message.entity';
import type { WebhookAction, WebhookStatus } from './webhook-subscription.entity';

/** The messages' table: only the worker reads and writes it. */
export const webhookMessagesTable = TypeOrmModule.forFeature([WebhookMessage]);

/**
 * How long a claim owns a message: longer than an attempt can take (the sender gives up after
 * 10 s at most) plus a short wait for a place under the fairness limits (WAIT_MS) and recording it.
 * A worker that dies mid-attempt leaves the message to others after this.
 */
const LEASE_MS = 15_000;

/**
 * A message due this little in the future may be claimed already: Bull's delayed jobs are timed by
 * the clock of whichever worker promotes them, which may run slightly ahead of the one that
 * scheduled the retry. Without it, such a job would find the message not due and end its chain,
 * leaving the message to the sweeper.
 */
const DUE_TOLERANCE_MS = 1000;

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

/** An event to fan out, with the subscriptions it goes to. */
export interface EventMessages {
  outboxId: string;
  accountId: number;
  notification: WebhookNotification;
  subscriptionIds: number[];
}

/** A claimed message as read: ids of BIGINT columns may come as strings, JSON as text. */
type MessageRow = Omit<ClaimedMessage, 'id' | 'lease' | 'outboxId' | 'variables'> & {
  id: number | string;
  outboxId: number | string;
  variables: string | WebhookVariables;
};

type Db = Pick<EntityManager, 'query'>;

/**
 * The webhook_messages table, in SQL written by hand: these statements run for every delivery, and
 * each is one round trip. Times are the worker's clock (the queue's delays are too), never NOW().
 * A message is claimed for an attempt by a lease (see LeasedRows): besides its lease, it must be
 * pending and due.
 */
@Injectable()
export class WebhookMessageRepository {
  private readonly leases = new LeasedRows({
    table: 'webhook_messages',
    claimable: "status = 'pending' AND next_attempt_at <= ?",
    leaseMs: LEASE_MS,
  });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Writes one pending message per subscription for each event, with one INSERT (the unique key
   * on (outbox_id, subscription_id) makes a second fan-out of the same event write nothing), then
   * answers the events' messages that are still pending, new or not.
   */
  async insertPending(events: EventMessages[]): Promise<string[]> {
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

  /** Claims one message with one UPDATE, whose affected rows decide, on the pool; then reads it. */
  async claimOne(id: string, now: Date): Promise<Map<string, ClaimedMessage>> {
    const lease = await this.leases.claimOne(this.dataSource, id, now, dueBy(now));
    return lease === null ? new Map() : this.readClaimed(this.dataSource, [id], lease);
  }

  /** Claims those of the messages that are claimable, locked, claimed and read in `tx`. */
  async claimSome(
    tx: EntityManager,
    ids: string[],
    now: Date,
  ): Promise<Map<string, ClaimedMessage>> {
    const { lease, claimed } = await this.leases.claimSome(tx, ids, now, dueBy(now));
    return claimed.length === 0 ? new Map() : this.readClaimed(tx, claimed, lease);
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
  putOff(message: ClaimedMessage, dueAt: Date, at = new Date()): Promise<boolean> {
    return this.leases.finish(this.dataSource, message, at, 'next_attempt_at = ?', [dueAt]);
  }

  /**
   * Locks the messages' rows for the rest of `tx` (in id order, as every batch locks) and answers,
   * for each in order, whether its claim still holds.
   */
  lockHeld(tx: EntityManager, messages: ClaimedMessage[]): Promise<boolean[]> {
    return this.leases.lockHeld(tx, messages);
  }

  /** Ends the claims lockHeld found holding with a delivered attempt. */
  finishDelivered(tx: EntityManager, ids: string[], at: Date): Promise<void> {
    return this.leases.finishLocked(tx, ids, at, "status = 'delivered', attempts = attempts + 1");
  }

  /** Ends the claim with an attempt's decision, only while it holds. Answers whether it did. */
  finishAttempt(
    tx: EntityManager,
    message: ClaimedMessage,
    at: Date,
    decision: AttemptDecision,
  ): Promise<boolean> {
    return this.leases.finish(
      tx,
      message,
      at,
      'status = ?, attempts = ?, next_attempt_at = COALESCE(?, next_attempt_at)',
      [decision.messageStatus, message.attempts + 1, decision.nextAttemptAt],
    );
  }

  /**
   * Messages whose job seems lost, locked for the rest of `tx`: pending, due for longer than the
   * grace, and not leased by an attempt in flight. Their due time is moved to `now`, both to name
   * the new job (so that its id differs from any job Bull still keeps) and so that the next sweep
   * leaves them alone for another grace period. SKIP LOCKED lets several workers sweep.
   */
  async sweepLost(
    tx: EntityManager,
    graceMs: number,
    limit: number,
    now: Date,
  ): Promise<{ id: string; attempts: number }[]> {
    const rows: { id: number | string; attempts: number }[] = await tx.query(
      `SELECT id, attempts FROM webhook_messages
        WHERE status = 'pending' AND next_attempt_at < ? AND ${NOT_LEASED_AT}
        ORDER BY next_attempt_at
        LIMIT ?
        FOR UPDATE SKIP LOCKED`,
      [new Date(now.getTime() - graceMs), now, limit],
    );
    if (rows.length === 0) return [];
    const ids = rows.map((row) => String(row.id));
    await tx.query(
      'UPDATE webhook_messages SET next_attempt_at = ?, updated_at = ? WHERE id IN (?)',
      [now, now, ids],
    );
    return rows.map((row) => ({ id: String(row.id), attempts: row.attempts }));
  }

  /**
   * What sending the claimed messages needs: their rows with the subscription's and the account's,
   * by id. The lease keeps out a message claimed since by another job. The signing key is the
   * account's, or the enterprise's for an enterprise's subscription.
   */
  private async readClaimed(
    db: Db,
    ids: string[],
    lease: Date,
  ): Promise<Map<string, ClaimedMessage>> {
    const rows: MessageRow[] = await db.query(
      `SELECT m.id, m.account_id AS accountId, m.subscription_id AS subscriptionId,
              m.outbox_id AS outboxId, m.action, m.resource_id AS resourceId, m.variables,
              m.attempts, s.target, s.status AS subscriptionStatus, s.failing_since AS failingSince,
              s.enterprise_id AS enterpriseId,
              COALESCE(e.api_key_encrypted, a.api_key_encrypted) AS apiKeyEncrypted
         FROM webhook_messages m
         JOIN webhook_subscriptions s ON s.id = m.subscription_id
         JOIN accounts a ON a.id = m.account_id
         LEFT JOIN enterprises e ON e.id = s.enterprise_id
        WHERE m.id IN (?) AND m.leased_until = ?`,
      [ids, lease],
    );
    return new Map(
      rows.map((row) => [
        String(row.id),
        {
          ...row,
          id: String(row.id),
          lease,
          outboxId: String(row.outboxId),
          // MariaDB's JSON is text to the driver; MySQL's is parsed already.
          variables:
            typeof row.variables === 'string'
              ? (JSON.parse(row.variables) as WebhookVariables)
              : row.variables,
        },
      ]),
    );
  }
}

/** Besides its lease, a message must be pending and due (the parameter of `claimable`). */
function dueBy(now: Date): unknown[] {
  return [new Date(now.getTime() + DUE_TOLERANCE_MS)];
}
