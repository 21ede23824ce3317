import { Body } from '@nestjs/common';
import { IdParam } from '../../common/http/id-param';
import { CurrentAccountId } from '../accounts';
import { CatalogController, Route } from '../catalog';
import { CreateFormRequest, UpdateFormRequest } from './form.requests';
import { FORM_VIEW, type FormView } from './form.view';
import { CreateFormCommand, DeleteFormCommand, UpdateFormCommand } from './form.commands';
import { GetFormQuery, ListFormsQuery } from './form.queries';
import { ApiErrors } from '../../common/openapi/api-errors';
import { BusController } from '../../common/cqrs/bus-controller';

@CatalogController('forms')
export class FormsController extends BusController {
  @Route.list('List the forms', FORM_VIEW)
  list(@CurrentAccountId() accountId: number): Promise<FormView[]> {
    return this.queries.execute(new ListFormsQuery(accountId));
  }

  @Route.get('Read a form', FORM_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<FormView> {
    return this.queries.execute(new GetFormQuery(accountId, id));
  }

  @Route.create('Create a form', FORM_VIEW)
  @ApiErrors({ 400: ['required_fields'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateFormRequest,
  ): Promise<FormView> {
    return this.commands.execute(new CreateFormCommand(accountId, request));
  }

  @Route.update('Change a form', FORM_VIEW)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateFormRequest,
  ): Promise<FormView> {
    return this.commands.execute(new UpdateFormCommand(accountId, id, request));
  }

  @Route.delete('Delete a form')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteFormCommand(accountId, id));
  }
}
