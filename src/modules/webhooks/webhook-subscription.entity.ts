import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CascadeTo } from '../../common/database/cascade-to';
import { DomainEventType } from '../../common/outbox/domain-event-types';
import { Account, Enterprise } from '../accounts';
import { LockVersionColumn } from '../../common/database/row-locks';

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

/** `disabled` after failing for the disable window, until its owner re-enables it. */
export type WebhookStatus = 'active' | 'disabled';

/** Where an account's (or an enterprise's: all its members') events of one action are delivered. */
@Entity('webhook_subscriptions')
@Index('idx_webhook_subscriptions_fanout', ['accountId', 'action', 'status'])
@Index('idx_webhook_subscriptions_enterprise_fanout', ['enterpriseId', 'action', 'status'])
@Index('uq_webhook_subscriptions_static', ['accountId', 'staticAction'], { unique: true })
export class WebhookSubscription {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  /** The owning account; null for an enterprise's subscription. */
  @CascadeTo(() => Account, 'fk_webhook_subscriptions_account')
  @Column({ name: 'account_id', type: 'int', unsigned: true, nullable: true })
  accountId!: number | null;

  /** The owning enterprise (its members' events); null for an account's subscription. */
  @CascadeTo(() => Enterprise, 'fk_webhook_subscriptions_enterprise')
  @Column({ name: 'enterprise_id', type: 'int', unsigned: true, nullable: true })
  enterpriseId!: number | null;

  @Column({ type: 'varchar', length: 8 })
  source!: WebhookSource;

  @Column({ type: 'varchar', length: 32 })
  action!: WebhookAction;

  /**
   * `action` for a static subscription, null for an api one (a CHECK of the migration; set by
   * newWebhookSubscription): the unique key on (account_id, static_action) allows one per action.
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
  fields: Pick<WebhookSubscription, 'accountId' | 'source' | 'action' | 'target'> & {
    enterpriseId?: number;
  },
): Omit<WebhookSubscription, 'id'> {
  const now = new Date();
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
export function reenabled(): Partial<WebhookSubscription> {
  return { status: 'active', failingSince: null, disabledAt: null, updatedAt: new Date() };
}

/** The columns a message and a delivery (an attempt) share: one event for one subscription. */
export abstract class WebhookEventRow {
  /** BIGINT, read as a string (exact beyond 2^53). */
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  /** The event: its outbox row id (BIGINT, read as a string). */
  @Column({ name: 'outbox_id', type: 'bigint', unsigned: true })
  outboxId!: string;

  @Column({ type: 'varchar', length: 32 })
  action!: WebhookAction;

  /** The appointment or order the event is about (the delivered `id`). */
  @Column({ name: 'resource_id', type: 'int', unsigned: true })
  resourceId!: number;
}
