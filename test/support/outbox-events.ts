import type { DataSource } from 'typeorm';

/**
 * The ids of the outbox rows of event `type` whose payload names `id` under `key`
 * (`appointmentId`, `orderId`), oldest first: what a change recorded, and what its webhooks carry.
 */
export async function outboxEvents(
  db: DataSource,
  type: string,
  key: 'appointmentId' | 'orderId',
  id: number,
): Promise<string[]> {
  const rows = await db.query<{ id: string | number }[]>(
    `SELECT id FROM outbox WHERE type = ? AND JSON_VALUE(payload, '$.${key}') = ? ORDER BY id`,
    [type, id],
  );
  return rows.map((row) => String(row.id));
}
