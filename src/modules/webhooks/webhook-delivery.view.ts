import type { WebhookDelivery } from './webhook-delivery.entity';
import { id, int, orNull, text, viewSchema } from '../../common/openapi/view-schema';

/** One delivery attempt, as `GET /webhooks/{id}/deliveries` shows it to the receiver's owner. */
export interface WebhookDeliveryView {
  /** A number like every id of the API (a BIGINT that will not pass 2^53). */
  id: number;
  /** When the attempt was made: ISO 8601, UTC, milliseconds. */
  time: string;
  action: string;
  resourceID: number;
  attempt: number;
  /** The receiver's HTTP status; null when it did not answer. */
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  outcome: string;
  nextRetry: string | null;
}

export function toWebhookDeliveryView(row: WebhookDelivery): WebhookDeliveryView {
  return {
    id: Number(row.id),
    time: row.attemptedAt.toISOString(),
    action: row.action,
    resourceID: row.resourceId,
    attempt: row.attempt,
    statusCode: row.statusCode,
    error: row.error,
    durationMs: row.durationMs,
    outcome: row.outcome,
    nextRetry: row.nextRetryAt ? row.nextRetryAt.toISOString() : null,
  };
}

const instant = (example: string) => ({
  type: 'string',
  format: 'date-time',
  example,
  description: 'ISO 8601, UTC.',
});

export const WEBHOOK_DELIVERY_VIEW = viewSchema<WebhookDeliveryView>('WebhookDeliveryView', {
  id: id(1042),
  time: instant('2030-06-03T14:15:00.000Z'),
  action: text('appointment.scheduled'),
  resourceID: id(54321),
  attempt: int(1),
  statusCode: orNull(int(200, "The receiver's HTTP status; null when it did not answer.")),
  error: orNull(text('')),
  durationMs: int(84),
  outcome: text('delivered'),
  nextRetry: orNull(instant('2030-06-03T14:15:30.000Z')),
});
