import { Injectable } from '@nestjs/common';
import { Command, CommandHandler } from '@nestjs/cqrs';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { AccountCommand, AccountItemCommand } from '../../common/cqrs/account-messages';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { checkOutboundTarget } from '../../common/net/outbound-target';
import { AppConfig } from '../../config/app-config';
import type { StaticWebhookChange, UpdateStaticWebhooksRequest } from './static-webhooks.requests';
import { type StaticWebhooksView, toStaticWebhooksView } from './static-webhooks.view';
import {
  STATIC_WEBHOOK_KEYS,
  type StaticWebhookKey,
  actionOfEvent,
  actionOfStaticKey,
  newWebhookSubscription,
  reenabled,
} from './webhook-subscription.entity';
import {
  type WebhookOwner,
  WebhookSubscriptionRepository,
} from './webhook-subscription.repository';
import type { CreateWebhookRequest, UpdateWebhookRequest } from './webhook-subscription.requests';
import {
  type WebhookSubscriptionView,
  toWebhookSubscriptionView,
} from './webhook-subscription.view';
import { MAX_WEBHOOKS } from './webhooks.errors';

/*
 * Writes that depend on what else the owner has (the limit of 25, one static webhook per action)
 * run under a lock on the owner's row, at READ COMMITTED, so parallel requests take turns; the
 * unique key on (account_id, static_action) backs the second rule.
 */

/** The account a write is for: none for an enterprise's subscriptions. */
const accountOf = (owner: WebhookOwner) => ('accountId' in owner ? owner.accountId : null);

/** What writing a target takes: the subscriptions, and the outbound policy it is checked against. */
@Injectable()
abstract class TargetWriteHandler {
  constructor(
    protected readonly work: UnitOfWork,
    protected readonly subscriptions: WebhookSubscriptionRepository,
    private readonly config: AppConfig,
  ) {}

  /** The target, when the outbound policy lets deliveries go there (else `reason` says why). */
  protected checkedTarget(attribute: string, target: string): string {
    const check = checkOutboundTarget(target, this.config.webhooks);
    if (!check.ok)
      throw new InvalidAttributeError('invalid_target', `Attribute "${attribute}" ${check.reason}`);
    return target;
  }
}

/** `POST /webhooks` (an account's) or `POST /api/enterprise/v1/webhooks` (an enterprise's). */
export class CreateWebhookCommand extends Command<WebhookSubscriptionView> {
  constructor(
    readonly owner: WebhookOwner,
    readonly request: CreateWebhookRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateWebhookCommand)
export class CreateWebhookHandler extends TargetWriteHandler {
  execute({ owner, request }: CreateWebhookCommand): Promise<WebhookSubscriptionView> {
    const target = this.checkedTarget('target', request.target);
    return this.work.run(
      accountOf(owner),
      async (tx) => {
        await this.subscriptions.lockOwner(tx, owner);
        if ((await this.subscriptions.countDynamic(tx, owner)) >= MAX_WEBHOOKS) {
          const ownerKind = 'accountId' in owner ? 'account' : 'enterprise';
          throw new InvalidAttributeError(
            'too_many_webhooks',
            `An ${ownerKind} can have at most ${MAX_WEBHOOKS} webhooks; delete one to add another.`,
          );
        }
        const row = await this.subscriptions.insert(
          tx,
          newWebhookSubscription({
            accountId: accountOf(owner),
            ...('enterpriseId' in owner ? { enterpriseId: owner.enterpriseId } : {}),
            source: 'api',
            action: actionOfEvent(request.event),
            target,
          }),
        );
        return toWebhookSubscriptionView(row);
      },
      { isolation: 'READ COMMITTED' },
    );
  }
}

/** Re-enables (`status: "active"`) and/or points to a new target, which re-enables too. */
export class UpdateWebhookCommand extends AccountItemCommand<
  UpdateWebhookRequest,
  WebhookSubscriptionView
> {}

@CommandHandler(UpdateWebhookCommand)
export class UpdateWebhookHandler extends TargetWriteHandler {
  execute({ accountId, id, request }: UpdateWebhookCommand): Promise<WebhookSubscriptionView> {
    const target =
      request.target === undefined ? undefined : this.checkedTarget('target', request.target);
    return this.work.run(accountId, async (tx) => {
      const row = await this.subscriptions.findDynamic({ accountId }, id, { forUpdate: true, tx });
      const newTarget = target !== undefined && target !== row.target;
      if (newTarget || request.status === 'active') {
        const changes = { ...reenabled(), ...(newTarget ? { target } : {}) };
        await this.subscriptions.update(tx, row.id, changes);
        Object.assign(row, changes);
      }
      return toWebhookSubscriptionView(row);
    });
  }
}

/** Hard delete of the owner's subscription; its delivery log goes with it. */
export class DeleteWebhookCommand extends Command<void> {
  constructor(
    readonly owner: WebhookOwner,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler extends WriteHandler(WebhookSubscriptionRepository) {
  execute({ owner, id }: DeleteWebhookCommand): Promise<void> {
    return this.unitOfWork.run(accountOf(owner), async (tx) => {
      const row = await this.rows.findDynamic(owner, id, { tx });
      await this.rows.delete(tx, row.id);
    });
  }
}

/**
 * Every key given, in one transaction: a target sets or replaces the webhook (a different one
 * re-enables it), null or "" removes it, `status: "active"` re-enables it. The same target again
 * changes nothing, so that putting back the targets read re-enables nothing.
 */
export class UpdateStaticWebhooksCommand extends AccountCommand<
  UpdateStaticWebhooksRequest,
  StaticWebhooksView
> {}

@CommandHandler(UpdateStaticWebhooksCommand)
export class UpdateStaticWebhooksHandler extends TargetWriteHandler {
  execute({ accountId, request }: UpdateStaticWebhooksCommand): Promise<StaticWebhooksView> {
    const changes = STATIC_WEBHOOK_KEYS.flatMap((key) => {
      const change = request[key];
      return change ? [this.checkedChange(key, change)] : [];
    });
    return this.work.run(
      accountId,
      async (tx) => {
        await this.subscriptions.lockOwner(tx, { accountId });
        const rows = await this.subscriptions.listStatic(accountId, tx);
        for (const { key, target, reenable } of changes) {
          const action = actionOfStaticKey(key);
          const row = rows.find((r) => r.action === action);
          if (target === null) {
            if (row) await this.subscriptions.delete(tx, row.id);
          } else if (!row) {
            if (target !== undefined)
              await this.subscriptions.insert(
                tx,
                newWebhookSubscription({ accountId, source: 'static', action, target }),
              );
          } else if (target !== undefined && target !== row.target) {
            await this.subscriptions.update(tx, row.id, { ...reenabled(), target });
          } else if (reenable) {
            await this.subscriptions.update(tx, row.id, reenabled());
          }
        }
        return toStaticWebhooksView(await this.subscriptions.listStatic(accountId, tx));
      },
      { isolation: 'READ COMMITTED' },
    );
  }

  /** `target` undefined: unchanged; null: remove; a string: checked against the policy. */
  private checkedChange(key: StaticWebhookKey, change: StaticWebhookChange) {
    const target =
      change.target === undefined
        ? undefined
        : change.target === null || change.target === ''
          ? null
          : this.checkedTarget(`${key}.target`, change.target);
    return { key, target, reenable: change.status === 'active' };
  }
}
