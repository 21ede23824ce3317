import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { findReferenced } from '../../common/database/tenant-rows';
import { AppointmentType } from './appointment-type.entity';
import { InvalidAppointmentTypeError } from './catalog.errors';

/** Type ids a product or coupon is to be linked to: 400 unknown or deleted, 403 another account's. */
export async function checkAppointmentTypeIds(
  manager: EntityManager,
  accountId: number,
  ids: readonly number[],
): Promise<void> {
  await findReferenced(
    manager,
    AppointmentType,
    accountId,
    ids,
    (id) => new InvalidAppointmentTypeError(id),
  );
}

/**
 * The link rows (product or coupon → type) of `ownerIds` whose type is still live, by type id
 * ascending: a deleted type disappears from what links to it without the links being rewritten.
 */
export function liveTypeLinks<T extends ObjectLiteral & { appointmentTypeId: number }>(
  manager: EntityManager,
  link: EntityTarget<T>,
  ownerProperty: keyof T & string,
  accountId: number,
  ownerIds: readonly number[],
): Promise<T[]> {
  if (ownerIds.length === 0) return Promise.resolve([]);
  return manager
    .createQueryBuilder(link, 'link')
    .innerJoin(
      AppointmentType,
      'type',
      'type.id = link.appointmentTypeId AND type.accountId = :accountId AND type.deletedAt IS NULL',
      { accountId },
    )
    .where(`link.${ownerProperty} IN (:...ownerIds)`, { ownerIds })
    .orderBy('link.appointmentTypeId', 'ASC')
    .getMany();
}
