import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ForbiddenError, NotFoundError } from '../../common/errors/domain-error';
import { Account, Enterprise } from '../accounts';
import { WebhookDelivery } from './webhook-delivery.entity';
import type { AttemptFacts, StreakChange } from './webhook-delivery-rules';
import { type WebhookStatus, WebhookSubscription } from './webhook-subscription.entity';
import { lockRows } from '../../common/database/row-locks';

/** The subscriptions and their delivery log, with Account and Enterprise, which their keys name. */
export const webhookTables = TypeOrmModule.forFeature([
  Account,
  Enterprise,
  WebhookSubscription,
  WebhookDelivery,
]);

/** Whose subscriptions: an account's own, or an enterprise's (its members' events). */
export type WebhookOwner = { accountId: number } | { enterpriseId: number };

/** Not a TenantRepository: a subscription may be an enterprise's, and is deleted for good. */
@Injectable()
export class WebhookSubscriptionRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  private db(tx?: EntityManager): EntityManager {
    return tx ?? this.dataSource.manager;
  }

  listDynamic(owner: WebhookOwner): Promise<WebhookSubscription[]> {
    return this.db().find(WebhookSubscription, {
      where: dynamicOf(owner),
      order: { id: 'ASC' },
    });
  }

  countDynamic(tx: EntityManager, owner: WebhookOwner): Promise<number> {
    return tx.count(WebhookSubscription, { where: dynamicOf(owner) });
  }

  /** The account's static subscriptions, one per action at most. */
  listStatic(accountId: number, tx?: EntityManager): Promise<WebhookSubscription[]> {
    return this.db(tx).find(WebhookSubscription, { where: { accountId, source: 'static' } });
  }

  /**
   * Writes that count or look for the owner's other subscriptions take turns on the owner's row; at
   * READ COMMITTED they then read what the previous holder committed.
   */
  async lockOwner(tx: EntityManager, owner: WebhookOwner): Promise<void> {
    if ('accountId' in owner) await lockRows(tx, 'accounts', [owner.accountId]);
    else await lockRows(tx, 'enterprises', [owner.enterpriseId]);
  }

  /** The owner's dynamic subscription: another owner's is 403 (the contract), a static one 404. */
  async findDynamic(
    owner: WebhookOwner,
    id: number,
    options: { forUpdate?: boolean; tx?: EntityManager } = {},
  ): Promise<WebhookSubscription> {
    if (options.forUpdate && options.tx) await lockRows(options.tx, 'webhook_subscriptions', [id]);
    const row = await this.db(options.tx).findOne(WebhookSubscription, { where: { id } });
    if (!row) throw new NotFoundError();
    const mine =
      'accountId' in owner
        ? row.accountId === owner.accountId
        : row.enterpriseId === owner.enterpriseId;
    if (!mine) throw new ForbiddenError();
    if (row.source !== 'api') throw new NotFoundError();
    return row;
  }

  insert(tx: EntityManager, row: Omit<WebhookSubscription, 'id'>): Promise<WebhookSubscription> {
    return tx.save(tx.create(WebhookSubscription, row));
  }

  async update(
    tx: EntityManager,
    id: number,
    changes: Partial<WebhookSubscription>,
  ): Promise<void> {
    await tx.update(WebhookSubscription, { id }, changes);
  }

  /** Hard delete; its messages and delivery log go with it (ON DELETE CASCADE). */
  async delete(tx: EntityManager, id: number): Promise<void> {
    await tx.delete(WebhookSubscription, { id });
  }

  /**
   * The active subscriptions of the actions for the accounts' events, each with the account whose
   * events it hears (an enterprise's: each member, as the membership is now): a superset of the
   * pairs wanted, read by the (account_id|enterprise_id, action, status) indexes.
   */
  activeFor(
    accountIds: number[],
    actions: string[],
  ): Promise<{ id: number; account_id: number; action: string }[]> {
    return this.dataSource.query(
      `SELECT id, account_id, action FROM webhook_subscriptions
        WHERE account_id IN (?) AND action IN (?) AND status = 'active'
       UNION ALL
       SELECT s.id, a.id AS account_id, s.action
         FROM accounts a
         JOIN webhook_subscriptions s ON s.enterprise_id = a.enterprise_id
        WHERE a.id IN (?) AND s.action IN (?) AND s.status = 'active'
       ORDER BY id`,
      [accountIds, actions, accountIds, actions],
    );
  }

  /** The streak, its row locked so that parallel failures start and disable it once; or null. */
  async lockFailureStreak(
    tx: EntityManager,
    id: number,
  ): Promise<AttemptFacts['subscription'] | null> {
    await lockRows(tx, 'webhook_subscriptions', [id]);
    const rows: { status: WebhookStatus; failing_since: Date | null }[] = await tx.query(
      'SELECT status, failing_since FROM webhook_subscriptions WHERE id = ?',
      [id],
    );
    return rows.length === 0
      ? null
      : { status: rows[0].status, failingSince: rows[0].failing_since };
  }

  /** Writes a streak change; a clear or start another attempt made first writes nothing. */
  async changeFailureStreak(
    tx: EntityManager,
    id: number,
    streak: StreakChange,
    at: Date,
  ): Promise<void> {
    if (streak.kind === 'clear') {
      await tx.query(
        `UPDATE webhook_subscriptions SET failing_since = NULL, updated_at = ?
          WHERE id = ? AND status = 'active' AND failing_since IS NOT NULL`,
        [at, id],
      );
    } else if (streak.kind === 'start') {
      await tx.query(
        `UPDATE webhook_subscriptions SET failing_since = ?, updated_at = ?
          WHERE id = ? AND failing_since IS NULL`,
        [streak.failingSince, at, id],
      );
    } else if (streak.kind === 'disable') {
      await tx.query(
        `UPDATE webhook_subscriptions
            SET status = 'disabled', failing_since = ?, disabled_at = ?, updated_at = ?
          WHERE id = ?`,
        [streak.failingSince, streak.disabledAt, at, id],
      );
    }
  }
}

/** An account's dynamic subscriptions are its `api` ones; an enterprise has no other kind. */
function dynamicOf(owner: WebhookOwner) {
  return 'accountId' in owner ? { accountId: owner.accountId, source: 'api' as const } : owner;
}
