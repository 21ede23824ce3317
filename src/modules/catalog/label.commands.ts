import { CommandHandler } from '@nestjs/cqrs';
import {
  AccountCommand,
  AccountItemAction,
  AccountItemCommand,
  SoftDeleteHandler,
} from '../../common/cqrs/account-messages';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { copyGiven, newCatalogRow } from './catalog-row.entity';
import { Label } from './label.entity';
import { LabelRepository } from './label.repository';
import type { CreateLabelRequest, UpdateLabelRequest } from './label.requests';
import { type LabelView, toLabelView } from './label.view';

const DEFAULT_LABEL_COLOR = 'gray';

export class CreateLabelCommand extends AccountCommand<CreateLabelRequest, LabelView> {}

@CommandHandler(CreateLabelCommand)
export class CreateLabelHandler extends WriteHandler(LabelRepository) {
  execute({ accountId, request }: CreateLabelCommand): Promise<LabelView> {
    const label = newCatalogRow(Label, accountId, {
      name: request.name,
      color: request.color ?? DEFAULT_LABEL_COLOR,
    });
    return this.unitOfWork.run(accountId, async (tx) =>
      toLabelView(await this.rows.save(label, tx)),
    );
  }
}

export class UpdateLabelCommand extends AccountItemCommand<UpdateLabelRequest, LabelView> {}

@CommandHandler(UpdateLabelCommand)
export class UpdateLabelHandler extends WriteHandler(LabelRepository) {
  execute({ accountId, id, request }: UpdateLabelCommand): Promise<LabelView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const label = await this.rows.find(accountId, id, { tx });
      copyGiven(label, request, ['name', 'color']);
      label.updatedAt = new Date();
      return toLabelView(await this.rows.save(label, tx));
    });
  }
}

/** Soft delete: appointments that carry the label keep showing it. */
export class DeleteLabelCommand extends AccountItemAction {}

@CommandHandler(DeleteLabelCommand)
export class DeleteLabelHandler extends SoftDeleteHandler(LabelRepository) {}
