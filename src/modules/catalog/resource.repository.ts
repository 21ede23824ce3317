import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { AppointmentTypeResource } from './appointment-type-links.entity';
import { liveTypeLinks, markUsesResources } from './appointment-type.repository';
import { Resource } from './resource.entity';

/**
 * The appointments that still hold a unit of the resource: not canceled, of a type linked to it,
 * ending after now (padding included). A type deleted since still counts: its appointments stay.
 */
const UPCOMING_USES_SQL = `SELECT COUNT(*) AS n FROM appointments a
 WHERE a.account_id = ? AND a.canceled = 0 AND a.busy_until > ?
   AND a.appointment_type_id IN (
     SELECT l.appointment_type_id FROM appointment_type_resources l WHERE l.resource_id = ?)`;

@Injectable()
export class ResourceRepository extends RepositoryOf(Resource) {
  /** The resources' links to live types, by type id ascending (see liveTypeLinks). */
  typeLinks(
    accountId: number,
    resourceIds: readonly number[],
    tx: EntityManager = this.dataSource.manager,
  ): Promise<AppointmentTypeResource[]> {
    return liveTypeLinks(tx, AppointmentTypeResource, 'resourceId', accountId, resourceIds);
  }

  /**
   * Links the resource to the types `typeIds` (checked by the caller) and to no other, then sets
   * `uses_resources` of every type that gained or lost it.
   */
  async replaceTypes(
    tx: EntityManager,
    resource: Resource,
    typeIds: readonly number[],
  ): Promise<void> {
    const resourceId = resource.id;
    const before = await tx.findBy(AppointmentTypeResource, { resourceId });
    const after = [...new Set(typeIds)];
    await tx.delete(AppointmentTypeResource, { resourceId });
    if (after.length > 0)
      await tx.insert(
        AppointmentTypeResource,
        after.map((appointmentTypeId) => ({ appointmentTypeId, resourceId })),
      );
    await markUsesResources(tx, resource.accountId, [
      ...before.map((link) => link.appointmentTypeId),
      ...after,
    ]);
  }

  /** Sets the links of the types that list the resource again (its name or quantity changed). */
  async markTypes(tx: EntityManager, resource: Resource): Promise<void> {
    const links = await tx.findBy(AppointmentTypeResource, { resourceId: resource.id });
    await markUsesResources(
      tx,
      resource.accountId,
      links.map((link) => link.appointmentTypeId),
    );
  }

  /** How many appointments still to come hold a unit of the resource (UPCOMING_USES_SQL). */
  async upcomingUses(tx: EntityManager, resource: Resource, now: Date): Promise<number> {
    const [row] = await tx.query<{ n: number | string }[]>(UPCOMING_USES_SQL, [
      resource.accountId,
      now,
      resource.id,
    ]);
    return Number(row.n);
  }

  /**
   * Soft-deletes the resource (its links stay, as every catalog row's do) and clears
   * `uses_resources` of the types it was their last live resource of.
   */
  async markDeleted(tx: EntityManager, resource: Resource): Promise<void> {
    const { id, accountId } = resource;
    await tx.update(Resource, { id, accountId }, { deletedAt: new Date() });
    const links = await tx.findBy(AppointmentTypeResource, { resourceId: id });
    await markUsesResources(
      tx,
      accountId,
      links.map((link) => link.appointmentTypeId),
    );
  }
}
