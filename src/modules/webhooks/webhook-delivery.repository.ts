import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { AttemptDecision } from './webhook-delivery-rules';
import { WebhookDelivery } from './webhook-delivery.entity';
import type { Attempt } from './webhook-attempts';
import type { ClaimedMessage } from './webhook-message.repository';

/** An attempt with what it was of and what it came to: one line of the delivery log. */
export interface LoggedAttempt {
  message: ClaimedMessage;
  attempt: Attempt;
  decision: AttemptDecision;
}

const INSERT_DELIVERY = `INSERT INTO webhook_deliveries
  (subscription_id, account_id, outbox_id, action, resource_id, attempt, attempted_at,
   duration_ms, status_code, error, outcome, next_retry_at)
  VALUES`;
const DELIVERY_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** The parameters of an attempt's line (DELIVERY_ROW). */
function deliveryRow({
  message,
  attempt: { attemptedAt, sent },
  decision,
}: LoggedAttempt): unknown[] {
  return [
    message.subscriptionId,
    message.accountId,
    message.outboxId,
    message.action,
    message.resourceId,
    message.attempts + 1,
    attemptedAt,
    Math.max(0, Math.round(sent.durationMs)),
    sent.statusCode,
    sent.error === null ? null : sent.error.slice(0, 255),
    decision.outcome,
    decision.nextAttemptAt,
  ];
}

/** The webhook_deliveries table: the delivery log, a line per attempt. */
@Injectable()
export class WebhookDeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Writes the attempts' lines with one INSERT, however many: a batch costs one round trip. */
  async log(tx: EntityManager, attempts: LoggedAttempt[]): Promise<void> {
    await tx.query(
      `${INSERT_DELIVERY} ${attempts.map(() => DELIVERY_ROW).join(', ')}`,
      attempts.flatMap((attempt) => deliveryRow(attempt)),
    );
  }

  /** The subscription's latest attempts first (the log grows in attempt order). */
  latest(subscriptionId: number, max: number): Promise<WebhookDelivery[]> {
    return this.dataSource.manager.find(WebhookDelivery, {
      where: { subscriptionId },
      order: { id: 'DESC' },
      take: max,
    });
  }
}
