import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { type Db, LeasedRows, NOT_LEASED_AT } from '../../common/database/leased-rows';
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
 * How long a claim owns a message: longer than an attempt (10 s at most), a wait under the fairness
 * limits (WAIT_MS) and its recording. A worker that dies mid-attempt leaves the message after this.
 */
const LEASE_MS = 15_000;

/**
 * A message due this little in the future may be claimed already: a delayed job is timed by the
 * clock of the worker that promotes it, which may run ahead of the one that scheduled the retry.
 * Such a job would otherwise find the message not due and end its chain, leaving it to the sweeper.
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

/**
 * The webhook_messages table, in SQL by hand: these statements run for every delivery, one round
 * trip each. Times are the worker's clock, as the queue's delays are, never NOW(). A message is
 * claimed for an attempt by a lease (LeasedRows), when pending and due.
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
   * Writes one pending message per subscription of each event, with one INSERT (the unique key on
   * (outbox_id, subscription_id) makes a second fan-out write nothing); answers the events'
   * messages still pending, new or not.
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
    // Every row new (the usual case): pending, with consecutive ids (InnoDB gives a multi-row
    // insert consecutive ids), so nothing needs reading back.
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
   * Gives a claim back without an attempt, due at `dueAt` when its delayed job runs (so the sweeper
   * does not take it for lost), its attempts and ladder unchanged. Answers whether the claim held.
   */
  putOff(message: ClaimedMessage, dueAt: Date): Promise<boolean> {
    return this.leases.finish(this.dataSource, message, new Date(), 'next_attempt_at = ?', [dueAt]);
  }

  /** Locks the rows in `tx`, in id order as every batch locks; answers whether each claim holds. */
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
   * Messages whose job seems lost (pending, due for longer than the grace, not leased), locked in
   * `tx`. Their due time moves to `now`: the new job's id then differs from any Bull keeps, and the
   * next sweep leaves them for another grace. SKIP LOCKED lets several workers sweep.
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
   * What sending the claimed messages needs, by id; the lease keeps out one another job claimed
   * since. The signing key is the account's, or the enterprise's for an enterprise's subscription.
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
