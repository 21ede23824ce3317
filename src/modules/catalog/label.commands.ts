import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { Label } from './label.entity';
import { LabelRepository } from './label.repository';
import type { CreateLabelRequest, UpdateLabelRequest } from './label.requests';
import { type LabelView, toLabelView } from './label.view';

export const DEFAULT_LABEL_COLOR = 'gray';

export class CreateLabelCommand extends Command<LabelView> {
  constructor(
    readonly accountId: number,
    readonly request: CreateLabelRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateLabelCommand)
export class CreateLabelHandler implements ICommandHandler<CreateLabelCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly labels: LabelRepository,
  ) {}

  execute({ accountId, request }: CreateLabelCommand): Promise<LabelView> {
    const now = new Date();
    const label = Object.assign(new Label(), {
      accountId,
      name: request.name,
      color: request.color ?? DEFAULT_LABEL_COLOR,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return this.unitOfWork.run(accountId, async (tx) =>
      toLabelView(await this.labels.save(label, tx)),
    );
  }
}

export class UpdateLabelCommand extends Command<LabelView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: UpdateLabelRequest,
  ) {
    super();
  }
}

@CommandHandler(UpdateLabelCommand)
export class UpdateLabelHandler implements ICommandHandler<UpdateLabelCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly labels: LabelRepository,
  ) {}

  execute({ accountId, id, request }: UpdateLabelCommand): Promise<LabelView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const label = await this.labels.find(accountId, id, { tx });
      if (request.name !== undefined) label.name = request.name;
      if (request.color !== undefined) label.color = request.color;
      label.updatedAt = new Date();
      return toLabelView(await this.labels.save(label, tx));
    });
  }
}

/** Soft delete: appointments that carry the label keep showing it. */
export class DeleteLabelCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteLabelCommand)
export class DeleteLabelHandler implements ICommandHandler<DeleteLabelCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly labels: LabelRepository,
  ) {}

  execute({ accountId, id }: DeleteLabelCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.labels.softDelete(accountId, id, tx));
  }
}
