import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { DomainEventType } from '../../common/outbox/domain-event-types';
import { Account, Enterprise } from '../accounts';

/** The contract's `action` values: what a delivery carries, for static and dynamic webhooks alike. */
export const WEBHOOK_ACTIONS = [
  'scheduled',
  'rescheduled',
  'canceled',
  'changed',
  'order.completed',
] as const;
export type WebhookAction = (typeof WEBHOOK_ACTIONS)[number];

/** The `event` of a dynamic subscription: the domain event types webhooks announce, by their name. */
export const WEBHOOK_EVENTS = [
  DomainEventType.AppointmentScheduled,
  DomainEventType.AppointmentRescheduled,
  DomainEventType.AppointmentCanceled,
  DomainEventType.AppointmentChanged,
  DomainEventType.OrderCompleted,
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The keys of `GET/PUT /integrations/webhooks`, one static webhook each. */
export const STATIC_WEBHOOK_KEYS = [
  'scheduled',
  'rescheduled',
  'canceled',
  'changed',
  'orderCompleted',
] as const;
export type StaticWebhookKey = (typeof STATIC_WEBHOOK_KEYS)[number];

/** `appointment.scheduled` → `scheduled`; `order.completed` stays. */
export function actionOfEvent(event: WebhookEvent): WebhookAction {
  return event === DomainEventType.OrderCompleted
    ? event
    : (event.slice('appointment.'.length) as WebhookAction);
}

export function eventOfAction(action: WebhookAction): WebhookEvent {
  return action === 'order.completed' ? DomainEventType.OrderCompleted : `appointment.${action}`;
}

/** `orderCompleted` → `order.completed`; the other keys are their action. */
export function actionOfStaticKey(key: StaticWebhookKey): WebhookAction {
  return key === 'orderCompleted' ? 'order.completed' : key;
}

/** `static`: set in the integrations settings; `api`: created through `/webhooks`. */
export type WebhookSource = 'static' | 'api';

/** `disabled` after failures continuing for the disable window, until re-enabled by its owner. */
export type WebhookStatus = 'active' | 'disabled';

/**
 * Where an account's events of one action are delivered; or, an enterprise's (`enterpriseId` set,
 * `accountId` null, source `api`), the events of all its member accounts.
 */
@Entity('webhook_subscriptions')
@Index('idx_webhook_subscriptions_fanout', ['accountId', 'action', 'status'])
@Index('idx_webhook_subscriptions_enterprise_fanout', ['enterpriseId', 'action', 'status'])
@Index('uq_webhook_subscriptions_static', ['accountId', 'staticAction'], { unique: true })
export class WebhookSubscription {
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @ForeignKey(() => Account, {
    name: 'fk_webhook_subscriptions_account',
    onDelete: 'CASCADE',
    onUpdate: 'RESTRICT',
  })
  /** The owning account; null for an enterprise's subscription. */
  @Column({ name: 'account_id', type: 'int', unsigned: true, nullable: true })
  accountId!: number | null;

  /** The owning enterprise (its members' events); null for an account's subscription. */
  @ForeignKey(() => Enterprise, {
    name: 'fk_webhook_subscriptions_enterprise',
    onDelete: 'CASCADE',
    onUpdate: 'RESTRICT',
  })
  @Column({ name: 'enterprise_id', type: 'int', unsigned: true, nullable: true })
  enterpriseId!: number | null;

  @Column({ type: 'varchar', length: 8 })
  source!: WebhookSource;

  @Column({ type: 'varchar', length: 32 })
  action!: WebhookAction;

  /**
   * The action of a static subscription, null for an api one: the unique key on
   * (account_id, static_action) allows one static subscription per action (a CHECK of the migration
   * keeps it equal to `action` exactly when `source` is static). Use `newWebhookSubscription`.
   */
  @Column({ name: 'static_action', type: 'varchar', length: 32, nullable: true })
  staticAction!: WebhookAction | null;

  /** An http(s) URL as its owner gave it (checked by checkOutboundTarget). */
  @Column({ type: 'varchar', length: 2048 })
  target!: string;

  @Column({ type: 'varchar', length: 8 })
  status!: WebhookStatus;

  /** First failure of the current run of failures; null while deliveries succeed. */
  @Column({ name: 'failing_since', type: 'datetime', precision: 3, nullable: true })
  failingSince!: Date | null;

  @Column({ name: 'disabled_at', type: 'datetime', precision: 3, nullable: true })
  disabledAt!: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}

/** A new, active subscription (with `staticAction` set as the unique key needs it). */
export function newWebhookSubscription(
  fields: {
    accountId: number | null;
    enterpriseId?: number;
    source: WebhookSource;
    action: WebhookAction;
    target: string;
  },
  now = new Date(),
): Omit<WebhookSubscription, 'id'> {
  return {
    ...fields,
    enterpriseId: fields.enterpriseId ?? null,
    staticAction: fields.source === 'static' ? fields.action : null,
    status: 'active',
    failingSince: null,
    disabledAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** What re-enabling (or pointing to a new target) resets: failures before it no longer count. */
export function reenabled(now = new Date()): Partial<WebhookSubscription> {
  return { status: 'active', failingSince: null, disabledAt: null, updatedAt: now };
}
