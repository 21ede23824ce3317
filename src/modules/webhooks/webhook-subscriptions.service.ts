import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ForbiddenError, NotFoundError } from '../../common/errors/domain-error';
import { AppConfig } from '../../config/app-config';
import type { StaticWebhookChange, UpdateStaticWebhooksRequest } from './static-webhooks.request';
import { type StaticWebhooksView, toStaticWebhooksView } from './static-webhooks.view';
import { WebhookDelivery } from './webhook-delivery.entity';
import { type WebhookDeliveryView, toWebhookDeliveryView } from './webhook-delivery.view';
import {
  STATIC_WEBHOOK_KEYS,
  type StaticWebhookKey,
  WebhookSubscription,
  actionOfEvent,
  actionOfStaticKey,
  newWebhookSubscription,
  reenabled,
} from './webhook-subscription.entity';
import {
  type CreateWebhookRequest,
  DEFAULT_DELIVERIES_MAX,
  type UpdateWebhookRequest,
} from './webhook-subscription.request';
import {
  type WebhookSubscriptionView,
  toWebhookSubscriptionView,
} from './webhook-subscription.view';
import { type OutboundTargetPolicy, checkOutboundTarget } from '../../common/net/outbound-target';
import { InvalidTargetError, MAX_WEBHOOKS, TooManyWebhooksError } from './webhooks.errors';

/**
 * The account's webhook subscriptions: dynamic ones (`/webhooks`, source `api`) and static ones
 * (`/integrations/webhooks`, one per action). Writes that depend on what else the account has (the
 * limit of 25, one static webhook per action) run under a lock on the account's row, so parallel
 * requests take turns; the unique key on (account_id, static_action) backs the second rule.
 */
@Injectable()
export class WebhookSubscriptionsService {
  private readonly policy: OutboundTargetPolicy;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.policy = config.webhooks;
  }

  async list(accountId: number): Promise<WebhookSubscriptionView[]> {
    const rows = await this.dataSource.manager.find(WebhookSubscription, {
      where: { accountId, source: 'api' },
      order: { id: 'ASC' },
    });
    return rows.map(toWebhookSubscriptionView);
  }

  async create(accountId: number, request: CreateWebhookRequest): Promise<WebhookSubscriptionView> {
    const target = this.checkedTarget('target', request.target);
    return this.dataSource.transaction('READ COMMITTED', async (tx) => {
      await lockAccount(tx, accountId);
      const count = await tx.count(WebhookSubscription, { where: { accountId, source: 'api' } });
      if (count >= MAX_WEBHOOKS) throw new TooManyWebhooksError();
      const row = await tx.save(
        tx.create(
          WebhookSubscription,
          newWebhookSubscription({
            accountId,
            source: 'api',
            action: actionOfEvent(request.event),
            target,
          }),
        ),
      );
      return toWebhookSubscriptionView(row);
    });
  }

  /** Re-enables (`status: "active"`) and/or points to a new target, which re-enables too. */
  async update(
    accountId: number,
    id: number,
    request: UpdateWebhookRequest,
  ): Promise<WebhookSubscriptionView> {
    const target =
      request.target === undefined ? undefined : this.checkedTarget('target', request.target);
    return this.dataSource.transaction(async (tx) => {
      const row = await findDynamic(tx, accountId, id, { forUpdate: true });
      const newTarget = target !== undefined && target !== row.target;
      if (newTarget || request.status === 'active') {
        const changes = { ...reenabled(), ...(newTarget ? { target } : {}) };
        await tx.update(WebhookSubscription, { id: row.id }, changes);
        Object.assign(row, changes);
      }
      return toWebhookSubscriptionView(row);
    });
  }

  /** Hard delete; its delivery log goes with it (ON DELETE CASCADE). */
  async delete(accountId: number, id: number): Promise<void> {
    const row = await findDynamic(this.dataSource.manager, accountId, id);
    await this.dataSource.getRepository(WebhookSubscription).delete({ id: row.id });
  }

  /** The latest attempts first (the log grows in attempt order). */
  async deliveries(
    accountId: number,
    id: number,
    max = DEFAULT_DELIVERIES_MAX,
  ): Promise<WebhookDeliveryView[]> {
    const manager = this.dataSource.manager;
    const row = await findDynamic(manager, accountId, id);
    const deliveries = await manager.find(WebhookDelivery, {
      where: { subscriptionId: row.id },
      order: { id: 'DESC' },
      take: max,
    });
    return deliveries.map(toWebhookDeliveryView);
  }

  /** An enterprise's subscriptions: each receives the events of all its members. */
  async listForEnterprise(enterpriseId: number): Promise<WebhookSubscriptionView[]> {
    const rows = await this.dataSource.manager.find(WebhookSubscription, {
      where: { enterpriseId },
      order: { id: 'ASC' },
    });
    return rows.map(toWebhookSubscriptionView);
  }

  /** As create(), the limit of 25 counted per enterprise, under a lock on the enterprise's row. */
  async createForEnterprise(
    enterpriseId: number,
    request: CreateWebhookRequest,
  ): Promise<WebhookSubscriptionView> {
    const target = this.checkedTarget('target', request.target);
    return this.dataSource.transaction('READ COMMITTED', async (tx) => {
      await tx.query('SELECT id FROM enterprises WHERE id = ? FOR UPDATE', [enterpriseId]);
      const count = await tx.count(WebhookSubscription, { where: { enterpriseId } });
      if (count >= MAX_WEBHOOKS) throw new TooManyWebhooksError('enterprise');
      const row = await tx.save(
        tx.create(
          WebhookSubscription,
          newWebhookSubscription({
            accountId: null,
            enterpriseId,
            source: 'api',
            action: actionOfEvent(request.event),
            target,
          }),
        ),
      );
      return toWebhookSubscriptionView(row);
    });
  }

  /** Hard delete of the enterprise's subscription; another owner's is 403, none 404. */
  async deleteForEnterprise(enterpriseId: number, id: number): Promise<void> {
    const row = await findDynamic(this.dataSource.manager, { enterpriseId }, id);
    await this.dataSource.getRepository(WebhookSubscription).delete({ id: row.id });
  }

  async getStatic(accountId: number): Promise<StaticWebhooksView> {
    return toStaticWebhooksView(await findStatic(this.dataSource.manager, accountId));
  }

  /**
   * Every key given, in one transaction: a target sets or replaces the webhook of that action (a
   * different target re-enables it), null or "" removes it, `status: "active"` re-enables it. The
   * same target again changes nothing, so that putting back the targets read re-enables nothing.
   */
  async updateStatic(
    accountId: number,
    request: UpdateStaticWebhooksRequest,
  ): Promise<StaticWebhooksView> {
    const changes = STATIC_WEBHOOK_KEYS.flatMap((key) => {
      const change = request[key];
      return change ? [this.checkedStaticChange(key, change)] : [];
    });
    return this.dataSource.transaction('READ COMMITTED', async (tx) => {
      await lockAccount(tx, accountId);
      const rows = await findStatic(tx, accountId);
      for (const { key, target, reenable } of changes) {
        const action = actionOfStaticKey(key);
        const row = rows.find((r) => r.action === action);
        if (target === null) {
          if (row) await tx.delete(WebhookSubscription, { id: row.id });
        } else if (!row) {
          if (target !== undefined)
            await tx.insert(
              WebhookSubscription,
              newWebhookSubscription({ accountId, source: 'static', action, target }),
            );
        } else if (target !== undefined && target !== row.target) {
          await tx.update(WebhookSubscription, { id: row.id }, { ...reenabled(), target });
        } else if (reenable) {
          await tx.update(WebhookSubscription, { id: row.id }, reenabled());
        }
      }
      return toStaticWebhooksView(await findStatic(tx, accountId));
    });
  }

  /** `target` undefined: unchanged; null: remove; a string: checked against the policy. */
  private checkedStaticChange(
    key: StaticWebhookKey,
    change: StaticWebhookChange,
  ): { key: StaticWebhookKey; target: string | null | undefined; reenable: boolean } {
    const target =
      change.target === undefined
        ? undefined
        : change.target === null || change.target === ''
          ? null
          : this.checkedTarget(`${key}.target`, change.target);
    return { key, target, reenable: change.status === 'active' };
  }

  private checkedTarget(attribute: string, target: string): string {
    const check = checkOutboundTarget(target, this.policy);
    if (!check.ok) throw new InvalidTargetError(attribute, check.reason);
    return target;
  }
}

/**
 * Writes that count or look for the account's other subscriptions take turns on its row. READ
 * COMMITTED: what they read after the lock is what the previous holder committed.
 */
async function lockAccount(tx: EntityManager, accountId: number): Promise<void> {
  await tx.query('SELECT id FROM accounts WHERE id = ? FOR UPDATE', [accountId]);
}

/** Whose subscriptions: an account's own, or an enterprise's (its members' events). */
export type WebhookOwner = { accountId: number } | { enterpriseId: number };

/**
 * A dynamic subscription of the owner: one that exists but is another owner's (account or
 * enterprise) is 403, as the contract's access rule reads; a static one is not one (404).
 */
async function findDynamic(
  manager: EntityManager,
  owner: WebhookOwner | number,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookSubscription> {
  const who = typeof owner === 'number' ? { accountId: owner } : owner;
  const row = await manager.findOne(WebhookSubscription, {
    where: { id },
    ...(options.forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!row) throw new NotFoundError();
  const mine =
    'accountId' in who ? row.accountId === who.accountId : row.enterpriseId === who.enterpriseId;
  if (!mine) throw new ForbiddenError();
  if (row.source !== 'api') throw new NotFoundError();
  return row;
}

function findStatic(manager: EntityManager, accountId: number): Promise<WebhookSubscription[]> {
  return manager.find(WebhookSubscription, { where: { accountId, source: 'static' } });
}
