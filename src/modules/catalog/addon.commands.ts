import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { toCents } from '../../common/money/money';
import { Addon } from './addon.entity';
import { AddonRepository } from './addon.repository';
import type { CreateAddonRequest, UpdateAddonRequest } from './addon.requests';
import { type AddonView, toAddonView } from './addon.view';

export class CreateAddonCommand extends Command<AddonView> {
  constructor(
    readonly accountId: number,
    readonly request: CreateAddonRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateAddonCommand)
export class CreateAddonHandler implements ICommandHandler<CreateAddonCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly addons: AddonRepository,
  ) {}

  execute({ accountId, request }: CreateAddonCommand): Promise<AddonView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const now = new Date();
      const addon = Object.assign(new Addon(), {
        accountId,
        name: request.name,
        duration: request.duration ?? 0,
        priceCents: request.price === undefined ? 0 : toCents(request.price),
        private: request.private ?? false,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      return toAddonView(await this.addons.save(addon, tx));
    });
  }
}

export class UpdateAddonCommand extends Command<AddonView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: UpdateAddonRequest,
  ) {
    super();
  }
}

@CommandHandler(UpdateAddonCommand)
export class UpdateAddonHandler implements ICommandHandler<UpdateAddonCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly addons: AddonRepository,
  ) {}

  execute({ accountId, id, request }: UpdateAddonCommand): Promise<AddonView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const addon = await this.addons.find(accountId, id, { tx });
      if (request.name !== undefined) addon.name = request.name;
      if (request.duration !== undefined) addon.duration = request.duration;
      if (request.price !== undefined) addon.priceCents = toCents(request.price);
      if (request.private !== undefined) addon.private = request.private;
      addon.updatedAt = new Date();
      return toAddonView(await this.addons.save(addon, tx));
    });
  }
}

/** Soft delete: appointments booked with the addon keep it; types stop offering it. */
export class DeleteAddonCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteAddonCommand)
export class DeleteAddonHandler implements ICommandHandler<DeleteAddonCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly addons: AddonRepository,
  ) {}

  execute({ accountId, id }: DeleteAddonCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.addons.softDelete(accountId, id, tx));
  }
}
