import { Body } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { CurrentAccountId } from '../accounts';
import { CatalogController, Route } from './catalog-routes';
import { CreateLabelRequest, UpdateLabelRequest } from './label.requests';
import { LABEL_VIEW, type LabelView } from './label.view';
import { CreateLabelCommand, DeleteLabelCommand, UpdateLabelCommand } from './label.commands';
import { GetLabelQuery, ListLabelsQuery } from './label.queries';

@CatalogController('labels')
export class LabelsController extends BusController {
  @Route.list('List the labels', LABEL_VIEW)
  list(@CurrentAccountId() accountId: number): Promise<LabelView[]> {
    return this.queries.execute(new ListLabelsQuery(accountId));
  }

  @Route.get('Read a label', LABEL_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<LabelView> {
    return this.queries.execute(new GetLabelQuery(accountId, id));
  }

  @Route.create('Create a label', LABEL_VIEW)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateLabelRequest,
  ): Promise<LabelView> {
    return this.commands.execute(new CreateLabelCommand(accountId, request));
  }

  @Route.update('Change a label', LABEL_VIEW)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateLabelRequest,
  ): Promise<LabelView> {
    return this.commands.execute(new UpdateLabelCommand(accountId, id, request));
  }

  @Route.delete('Delete a label')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteLabelCommand(accountId, id));
  }
}
