import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import { AccountQuery } from '../../common/cqrs/account-messages';
import { type StaticWebhooksView, toStaticWebhooksView } from './static-webhooks.view';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';
import { type WebhookDeliveryView, toWebhookDeliveryView } from './webhook-delivery.view';
import {
  type WebhookOwner,
  WebhookSubscriptionRepository,
} from './webhook-subscription.repository';
import { DEFAULT_DELIVERIES_MAX } from './webhook-subscription.requests';
import {
  type WebhookSubscriptionView,
  toWebhookSubscriptionView,
} from './webhook-subscription.view';

/** The owner's dynamic subscriptions, by id (an enterprise's receive all its members' events). */
export class ListWebhooksQuery extends Query<WebhookSubscriptionView[]> {
  constructor(readonly owner: WebhookOwner) {
    super();
  }
}

@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery> {
  constructor(private readonly subscriptions: WebhookSubscriptionRepository) {}

  async execute({ owner }: ListWebhooksQuery): Promise<WebhookSubscriptionView[]> {
    return (await this.subscriptions.listDynamic(owner)).map(toWebhookSubscriptionView);
  }
}

/** A dynamic subscription's delivery attempts, the latest first. */
export class ListWebhookDeliveriesQuery extends Query<WebhookDeliveryView[]> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly max = DEFAULT_DELIVERIES_MAX,
  ) {
    super();
  }
}

@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery> {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  async execute({ accountId, id, max }: ListWebhookDeliveriesQuery) {
    const row = await this.subscriptions.findDynamic({ accountId }, id);
    return (await this.deliveries.latest(row.id, max)).map(toWebhookDeliveryView);
  }
}

/** The account's static webhooks, every key, set or not. */
export class GetStaticWebhooksQuery extends AccountQuery<StaticWebhooksView> {}

@QueryHandler(GetStaticWebhooksQuery)
export class GetStaticWebhooksHandler implements IQueryHandler<GetStaticWebhooksQuery> {
  constructor(private readonly subscriptions: WebhookSubscriptionRepository) {}

  async execute({ accountId }: GetStaticWebhooksQuery): Promise<StaticWebhooksView> {
    return toStaticWebhooksView(await this.subscriptions.listStatic(accountId));
  }
}
