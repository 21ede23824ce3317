import type { EntityManager } from 'typeorm';
import type { AttemptFacts, StreakChange } from './webhook-delivery-rules';
import type { WebhookStatus } from './webhook-subscription.entity';

type Tx = Pick<EntityManager, 'query'>;

/**
 * The subscription's failure streak as it stands, its row locked for the rest of the transaction,
 * so that parallel failures start one streak and disable it once; null when it was deleted.
 */
export async function lockFailureStreak(
  tx: Tx,
  subscriptionId: number,
): Promise<AttemptFacts['subscription'] | null> {
  const rows: { status: WebhookStatus; failing_since: Date | null }[] = await tx.query(
    'SELECT status, failing_since FROM webhook_subscriptions WHERE id = ? FOR UPDATE',
    [subscriptionId],
  );
  return rows.length === 0 ? null : { status: rows[0].status, failingSince: rows[0].failing_since };
}

/**
 * Writes what an attempt did to its subscription's streak (see decideAttempt). The conditions make
 * a change that another attempt made first (a clear, a start) write nothing.
 */
export async function changeFailureStreak(
  tx: Tx,
  subscriptionId: number,
  streak: StreakChange,
  at: Date,
): Promise<void> {
  if (streak.kind === 'clear') {
    await tx.query(
      `UPDATE webhook_subscriptions SET failing_since = NULL, updated_at = ?
        WHERE id = ? AND status = 'active' AND failing_since IS NOT NULL`,
      [at, subscriptionId],
    );
  } else if (streak.kind === 'start') {
    await tx.query(
      `UPDATE webhook_subscriptions SET failing_since = ?, updated_at = ?
        WHERE id = ? AND failing_since IS NULL`,
      [streak.failingSince, at, subscriptionId],
    );
  } else if (streak.kind === 'disable') {
    await tx.query(
      `UPDATE webhook_subscriptions
          SET status = 'disabled', failing_since = ?, disabled_at = ?, updated_at = ?
        WHERE id = ?`,
      [streak.failingSince, streak.disabledAt, at, subscriptionId],
    );
  }
}
