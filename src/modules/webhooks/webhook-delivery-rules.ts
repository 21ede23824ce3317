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

/**
 * The rules of webhook delivery that need no database, queue or network: what an event sends, when
 * a failed attempt is tried again, and what an attempt's outcome does to the message and to its
 * subscription's failure streak. The worker's fan-out and delivery processor apply them.
 */

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
 * The webhook events one domain event is delivered as: its own, and `appointment.changed` beside a
 * booking, a move and a cancellation (the contract: `changed` announces every change). So `changed`
 * subscribers get each change once, and subscribers of both get two requests, as the contract warns;
 * each is a message of its own (a subscription has one action), both from the event's outbox row.
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
 * The notification of a domain event as one webhook event (see deliveredAs), or null for an event
 * webhooks do not announce (or a payload without the ids it needs).
 *
 * Variables (contract, Events › Delivery): `action`, `id`, and for appointments `calendarID` and
 * `appointmentTypeID`; an order's carry `action` and `id` only.
 */
export function notificationOf(
  type: string,
  payload: Record<string, unknown>,
): WebhookNotification | null {
  if (!isEventType(type)) return null;
  const action = actionOfEvent(type);
  if (type === DomainEventType.OrderCompleted) {
    const { orderId } = payload;
    if (!isId(orderId)) return null;
    return {
      action,
      resourceId: orderId,
      variables: [
        ['action', action],
        ['id', orderId],
      ],
    };
  }
  const { appointmentId, calendarId, appointmentTypeId } = payload;
  if (!isId(appointmentId) || !isId(calendarId) || !isId(appointmentTypeId)) return null;
  return {
    action,
    resourceId: appointmentId,
    variables: [
      ['action', action],
      ['id', appointmentId],
      ['calendarID', calendarId],
      ['appointmentTypeID', appointmentTypeId],
    ],
  };
}

/** The variables as webhookBody takes them (an object keeps the order of non-numeric names). */
export function variablesObject(variables: WebhookVariables): Record<string, string | number> {
  return Object.fromEntries(variables);
}

/**
 * The `webhook-id` of every attempt of one message: the same across retries, and across a message
 * revived after Redis lost its job, so that a receiver can drop what it already has.
 */
export function webhookIdOf(outboxId: string, subscriptionId: number): string {
  return `msg_${outboxId}_${subscriptionId}`;
}

/**
 * The wait before retry `attemptsMade` (1 for the first retry) after that many failed attempts, or
 * null when the ladder has no such rung: the contract's 2 s, 30 s, 1 min, 5 min, 10 min, 15 min,
 * 30 min, 1 h, 12 h, then stop. Counted from the message's attempts (its row), not from the queue
 * job's, so a message revived after Redis lost its job continues on the same rung.
 */
export function retryDelayMs(attemptsMade: number, ladder: readonly number[]): number | null {
  return Number.isInteger(attemptsMade) && attemptsMade >= 1 && attemptsMade <= ladder.length
    ? ladder[attemptsMade - 1]
    : null;
}

/** What an attempt does to its subscription's failure streak. */
export type StreakChange =
  /** Nothing to write. */
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
 * What one attempt's outcome does (contract, Events › Retries, and the webhook delivery states):
 *
 * - delivered (any 2xx): the message is done; a success clears the subscription's failure streak
 *   (of an active subscription: a disabled one stays disabled until its owner re-enables it).
 * - failed (any other answer than 2xx and 500 — 3xx, 4xx, 502… — or a target refused by the
 *   policy): not retried, and not counted towards disabling (only 500s and network errors count).
 * - retry (HTTP 500 or a network error): counts towards the streak, which starts at this attempt
 *   when none is running. When the streak has lasted the disable window, the subscription is
 *   disabled and the message stops; otherwise the next rung of the ladder is scheduled, and when
 *   there is none the message stops.
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
