import { DomainEventType } from '../../common/outbox/domain-event-types';
import type { WebhooksConfig } from '../../config/app-config';
import type { DeliveryOutcome } from './webhook-delivery.entity';
import type { SendOutcome } from './webhook-sender';
import {
  WEBHOOK_EVENTS,
  type WebhookAction,
  type WebhookEvent,
  type WebhookStatus,
  actionOfEvent,
} from './webhook-subscription.entity';

/* Delivery's pure rules: what an event sends, when to retry, what an attempt's outcome does. */

/** The body's variables in order, as [name, value] pairs. */
export type WebhookVariables = [name: string, value: string | number][];

/** What the fan-out sends for one event, to every subscription of its action. */
export interface WebhookNotification {
  action: WebhookAction;
  /** The appointment or order: the delivered `id`. */
  resourceId: number;
  variables: WebhookVariables;
}

const isEventType = (type: string): type is WebhookEvent =>
  (WEBHOOK_EVENTS as readonly string[]).includes(type);

const isId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * The webhook events a domain event is delivered as: its own, and `appointment.changed` beside a
 * booking, a move and a cancellation (the contract: `changed` announces every change). Subscribers
 * of both get two requests, as the contract warns: a message each, from the one outbox row.
 */
export function deliveredAs(type: DomainEventType): DomainEventType[] {
  switch (type) {
    case DomainEventType.AppointmentScheduled:
    case DomainEventType.AppointmentRescheduled:
    case DomainEventType.AppointmentCanceled:
      return [type, DomainEventType.AppointmentChanged];
    default:
      return [type];
  }
}

/**
 * A domain event as one webhook event, or null for one webhooks do not announce (or a payload
 * without its ids). Variables (contract, Events › Delivery): `action`, `id`, and for appointments
 * `calendarID` and `appointmentTypeID`.
 */
export function notificationOf(
  type: string,
  payload: Record<string, unknown>,
): WebhookNotification | null {
  if (!isEventType(type)) return null;
  const action = actionOfEvent(type);
  const ids: [string, unknown][] =
    type === DomainEventType.OrderCompleted
      ? [['id', payload.orderId]]
      : [
          ['id', payload.appointmentId],
          ['calendarID', payload.calendarId],
          ['appointmentTypeID', payload.appointmentTypeId],
        ];
  if (!ids.every(([, id]) => isId(id))) return null;
  const variables = ids as [string, number][];
  return { action, resourceId: variables[0][1], variables: [['action', action], ...variables] };
}

/** The variables as webhookBody takes them (an object keeps the order of non-numeric names). */
export function variablesObject(variables: WebhookVariables): Record<string, string | number> {
  return Object.fromEntries(variables);
}

/** Every attempt's `webhook-id`, the same across retries and revivals: receivers drop repeats. */
export function webhookIdOf(outboxId: string, subscriptionId: number): string {
  return `msg_${outboxId}_${subscriptionId}`;
}

/**
 * The wait before retry `attemptsMade` (1 for the first), or null past the ladder: the contract's
 * 2 s, 30 s, 1 min, 5 min, 10 min, 15 min, 30 min, 1 h, 12 h. Counted from the message's row, not
 * the queue job's, so a message revived after Redis lost its job continues on the same rung.
 */
export function retryDelayMs(attemptsMade: number, ladder: readonly number[]): number | null {
  return Number.isInteger(attemptsMade) && attemptsMade >= 1 && attemptsMade <= ladder.length
    ? ladder[attemptsMade - 1]
    : null;
}

/** What an attempt does to its subscription's failure streak. */
export type StreakChange =
  | { kind: 'unchanged' }
  /** A success: failures before it no longer count. */
  | { kind: 'clear' }
  /** A failure that counts, the first of a streak: remember when it began. */
  | { kind: 'start'; failingSince: Date }
  /** Failures have continued for the disable window: no further notifications. */
  | { kind: 'disable'; failingSince: Date; disabledAt: Date };

export interface AttemptDecision {
  /** What the attempt log shows. */
  outcome: DeliveryOutcome;
  /** The message's status after the attempt (`pending` while a retry is scheduled). */
  messageStatus: 'pending' | 'delivered' | 'failed' | 'stopped';
  /** The wait before the retry, when one is scheduled. */
  retryDelayMs: number | null;
  /** When the retry is due, when one is scheduled. */
  nextAttemptAt: Date | null;
  streak: StreakChange;
}

export interface AttemptFacts {
  /** How the sender classified the attempt (retry: HTTP 500 or a network error). */
  kind: SendOutcome['kind'];
  /** Attempts made, this one included. */
  attemptsMade: number;
  /** When the attempt started: a failure streak starts then. */
  attemptedAt: Date;
  /** When it ended: a retry's wait counts from then. */
  finishedAt: Date;
  /** The subscription as it stands (read under its row lock when the attempt failed). */
  subscription: { status: WebhookStatus; failingSince: Date | null };
  policy: Pick<WebhooksConfig, 'retryDelaysMs' | 'disableAfterMs'>;
}

/**
 * What one attempt's outcome does (contract, Events › Retries, and the delivery states):
 * - delivered (2xx): the message is done, and an active subscription's failure streak cleared (a
 *   disabled one stays disabled until its owner re-enables it);
 * - failed (any other answer but 500, or a target the policy refuses): not retried nor counted;
 * - retry (HTTP 500, a network error): counts towards the streak, started now if none runs. Once
 *   it has lasted the disable window, the subscription is disabled and the message stops; else the
 *   ladder's next rung is scheduled, or the message stops when there is none.
 */
export function decideAttempt(facts: AttemptFacts): AttemptDecision {
  const { kind, attemptsMade, attemptedAt, finishedAt, subscription, policy } = facts;
  const final = (
    outcome: DeliveryOutcome,
    messageStatus: AttemptDecision['messageStatus'],
    streak: StreakChange,
  ): AttemptDecision => ({
    outcome,
    messageStatus,
    retryDelayMs: null,
    nextAttemptAt: null,
    streak,
  });

  if (kind === 'delivered') {
    const clears = subscription.status === 'active' && subscription.failingSince !== null;
    return final('delivered', 'delivered', clears ? { kind: 'clear' } : { kind: 'unchanged' });
  }
  if (kind === 'failed') return final('failed', 'failed', { kind: 'unchanged' });

  // Disabled meanwhile (by another message's failure): no further notifications.
  if (subscription.status === 'disabled') return final('stopped', 'stopped', { kind: 'unchanged' });
  const failingSince = subscription.failingSince ?? attemptedAt;
  if (attemptedAt.getTime() - failingSince.getTime() >= policy.disableAfterMs) {
    return final('stopped', 'stopped', { kind: 'disable', failingSince, disabledAt: finishedAt });
  }
  const streak: StreakChange =
    subscription.failingSince === null ? { kind: 'start', failingSince } : { kind: 'unchanged' };
  const delay = retryDelayMs(attemptsMade, policy.retryDelaysMs);
  if (delay === null) return final('stopped', 'stopped', streak);
  return {
    outcome: 'retrying',
    messageStatus: 'pending',
    retryDelayMs: delay,
    nextAttemptAt: new Date(finishedAt.getTime() + delay),
    streak,
  };
}
