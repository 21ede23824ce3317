import type { WebhookDelivery } from './webhook-delivery.entity';
import {
  field,
  id,
  int,
  orNull,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

/** One delivery attempt, as `GET /webhooks/{id}/deliveries` shows it to the receiver's owner. */
export type WebhookDeliveryView = ViewType<typeof WEBHOOK_DELIVERY_VIEW>;

export function toWebhookDeliveryView(row: WebhookDelivery): WebhookDeliveryView {
  return {
    /** A number like every id of the API (a BIGINT that will not pass 2^53). */
    id: Number(row.id),
    /** When the attempt was made: ISO 8601, UTC, milliseconds. */
    time: row.attemptedAt.toISOString(),
    action: row.action,
    resourceID: row.resourceId,
    attempt: row.attempt,
    /** The receiver's HTTP status; null when it did not answer. */
    statusCode: row.statusCode,
    error: row.error,
    durationMs: row.durationMs,
    outcome: row.outcome,
    nextRetry: row.nextRetryAt ? row.nextRetryAt.toISOString() : null,
  };
}

const instant = (example: string) =>
  field<string>({
    type: 'string',
    format: 'date-time',
    example,
    description: 'ISO 8601, UTC.',
  });

export const WEBHOOK_DELIVERY_VIEW = viewSchema('WebhookDeliveryView', {
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
