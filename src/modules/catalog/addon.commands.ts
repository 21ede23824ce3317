import { CommandHandler } from '@nestjs/cqrs';
import {
  AccountCommand,
  AccountItemAction,
  AccountItemCommand,
  SoftDeleteHandler,
} from '../../common/cqrs/account-messages';
import { toCents } from '../../common/money/money';
import { Addon } from './addon.entity';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { copyGiven, newCatalogRow } from './catalog-row.entity';
import { AddonRepository } from './addon.repository';
import type { CreateAddonRequest, UpdateAddonRequest } from './addon.requests';
import { type AddonView, toAddonView } from './addon.view';

export class CreateAddonCommand extends AccountCommand<CreateAddonRequest, AddonView> {}

@CommandHandler(CreateAddonCommand)
export class CreateAddonHandler extends WriteHandler(AddonRepository) {
  execute({ accountId, request }: CreateAddonCommand): Promise<AddonView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const addon = newCatalogRow(Addon, accountId, {
        name: request.name,
        duration: request.duration ?? 0,
        priceCents: request.price === undefined ? 0 : toCents(request.price),
        private: request.private ?? false,
      });
      return toAddonView(await this.rows.save(addon, tx));
    });
  }
}

export class UpdateAddonCommand extends AccountItemCommand<UpdateAddonRequest, AddonView> {}

@CommandHandler(UpdateAddonCommand)
export class UpdateAddonHandler extends WriteHandler(AddonRepository) {
  execute({ accountId, id, request }: UpdateAddonCommand): Promise<AddonView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const addon = await this.rows.find(accountId, id, { tx });
      copyGiven(addon, request, ['name', 'duration', 'private']);
      if (request.price !== undefined) addon.priceCents = toCents(request.price);
      addon.updatedAt = new Date();
      return toAddonView(await this.rows.save(addon, tx));
    });
  }
}

/** Soft delete: appointments booked with the addon keep it; types stop offering it. */
export class DeleteAddonCommand extends AccountItemAction {}

@CommandHandler(DeleteAddonCommand)
export class DeleteAddonHandler extends SoftDeleteHandler(AddonRepository) {}
