import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `appointment_types.resource_links` replaces `resource_peers` (docs/resources.md): each live
 * resource the type needs with the types listing it, and the class types among those, so that a
 * booking locks its resources' days and reads their uses in its calendar's locking statement, by
 * ids known beforehand. Filled here for every type that uses a resource, as markUsesResources (in
 * appointment-type.repository.ts) keeps it; this copy of its statement is frozen with the migration.
 *
 * `idx_appointments_type_start` also holds what those reads take of each row (busy span, canceled,
 * class), so that a room's uses and a type's booking limits are read from the index alone.
 */
export class ResourceLinks1766000000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE appointments DROP INDEX idx_appointments_type_start,
      ADD INDEX idx_appointments_type_start
        (appointment_type_id, starts_at, busy_from, busy_until, canceled, class_id)`);
    await q.query(
      'ALTER TABLE appointment_types ADD COLUMN resource_links JSON NULL, DROP COLUMN resource_peers',
    );
    await q.query(`UPDATE appointment_types t
   SET t.resource_links = (SELECT IF(COUNT(*) = 0, NULL, JSON_OBJECT(
    'resources', JSON_ARRAYAGG(JSON_OBJECT('id', r.id, 'name', r.name, 'quantity', r.quantity, 'types', (
      SELECT JSON_ARRAYAGG(p.appointment_type_id ORDER BY p.appointment_type_id)
        FROM appointment_type_resources p WHERE p.resource_id = r.id)) ORDER BY r.id),
    'classTypes', (
      SELECT JSON_ARRAYAGG(DISTINCT p.appointment_type_id ORDER BY p.appointment_type_id)
        FROM appointment_type_resources cl
        JOIN resources cr ON cr.id = cl.resource_id AND cr.deleted_at IS NULL
        JOIN appointment_type_resources p ON p.resource_id = cl.resource_id
        JOIN appointment_types pt ON pt.id = p.appointment_type_id AND pt.kind = 'class'
       WHERE cl.appointment_type_id = t.id AND cr.account_id = t.account_id)))
  FROM appointment_type_resources l
  JOIN resources r ON r.id = l.resource_id AND r.deleted_at IS NULL
 WHERE l.appointment_type_id = t.id AND r.account_id = t.account_id)
 WHERE t.uses_resources`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE appointment_types ADD COLUMN resource_peers JSON NULL`);
    await q.query(`UPDATE appointment_types t
   SET t.resource_peers = (
       SELECT JSON_ARRAYAGG(DISTINCT p.appointment_type_id ORDER BY p.appointment_type_id)
         FROM appointment_type_resources l
         JOIN resources r ON r.id = l.resource_id AND r.deleted_at IS NULL
         JOIN appointment_type_resources p ON p.resource_id = l.resource_id
        WHERE l.appointment_type_id = t.id AND r.account_id = t.account_id)
 WHERE t.uses_resources`);
    await q.query('ALTER TABLE appointment_types DROP COLUMN resource_links');
    await q.query(`ALTER TABLE appointments DROP INDEX idx_appointments_type_start,
      ADD INDEX idx_appointments_type_start (appointment_type_id, starts_at)`);
  }
}
