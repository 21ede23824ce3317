import { CommandHandler } from '@nestjs/cqrs';
import {
  AccountCommand,
  AccountItemAction,
  AccountItemCommand,
} from '../../common/cqrs/account-messages';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { checkAppointmentTypeIds } from './appointment-type.repository';
import { ResourceInUseError } from './catalog.errors';
import { copyGiven, newCatalogRow } from './catalog-row.entity';
import { Resource } from './resource.entity';
import { ResourceRepository } from './resource.repository';
import type { CreateResourceRequest, UpdateResourceRequest } from './resource.requests';
import { type ResourceView, toResourceView } from './resource.view';

export class CreateResourceCommand extends AccountCommand<CreateResourceRequest, ResourceView> {}

@CommandHandler(CreateResourceCommand)
export class CreateResourceHandler extends WriteHandler(ResourceRepository) {
  execute({ accountId, request }: CreateResourceCommand): Promise<ResourceView> {
    const typeIds = request.appointmentTypeIDs ?? [];
    return this.unitOfWork.run(accountId, async (tx) => {
      await checkAppointmentTypeIds(tx, accountId, typeIds);
      const resource = await this.rows.save(
        newCatalogRow(Resource, accountId, { name: request.name, quantity: request.quantity }),
        tx,
      );
      await this.rows.replaceTypes(tx, resource, typeIds);
      return toResourceView(resource, await this.rows.typeLinks(accountId, [resource.id], tx));
    });
  }
}

export class UpdateResourceCommand extends AccountItemCommand<
  UpdateResourceRequest,
  ResourceView
> {}

@CommandHandler(UpdateResourceCommand)
export class UpdateResourceHandler extends WriteHandler(ResourceRepository) {
  execute({ accountId, id, request }: UpdateResourceCommand): Promise<ResourceView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const resource = await this.rows.find(accountId, id, { forUpdate: true, tx });
      const typeIds = request.appointmentTypeIDs;
      if (typeIds) await checkAppointmentTypeIds(tx, accountId, typeIds);
      copyGiven(resource, request, ['name', 'quantity']);
      resource.updatedAt = new Date();
      await this.rows.save(resource, tx);
      if (typeIds) await this.rows.replaceTypes(tx, resource, typeIds);
      else await this.rows.markTypes(tx, resource);
      return toResourceView(resource, await this.rows.typeLinks(accountId, [resource.id], tx));
    });
  }
}

/**
 * Soft delete, refused while appointments still to come hold a unit of it: they were booked
 * counting on the resource. A booking in flight (it locks the resource's days, not its row) may
 * still commit a use of it after the count: once deleted, the resource limits nothing, so such a
 * use overbooks nothing either.
 */
export class DeleteResourceCommand extends AccountItemAction {}

@CommandHandler(DeleteResourceCommand)
export class DeleteResourceHandler extends WriteHandler(ResourceRepository) {
  execute({ accountId, id }: DeleteResourceCommand): Promise<void> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const resource = await this.rows.find(accountId, id, { forUpdate: true, tx });
      const uses = await this.rows.upcomingUses(tx, resource, new Date());
      if (uses > 0) throw new ResourceInUseError(uses);
      await this.rows.markDeleted(tx, resource);
    });
  }
}
