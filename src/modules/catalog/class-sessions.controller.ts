import { Body, Query } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { CurrentAccountId } from '../accounts';
import { CatalogController, Route } from './catalog-routes';
import { CreateClassSessionRequest, ListClassSessionsRequest } from './class-session.requests';
import { CLASS_SESSION_VIEW, type ClassSessionView } from './class-session.view';
import { CreateClassSessionCommand, DeleteClassSessionCommand } from './class-session.commands';
import { GetClassSessionQuery, ListClassSessionsQuery } from './class-session.queries';
import { ApiErrors } from '../../common/openapi/api-errors';

/** The sessions of class-type offerings (no PUT: a session is moved by deleting and creating). */
@CatalogController('classes')
export class ClassSessionsController extends BusController {
  @Route.list('List the class sessions', CLASS_SESSION_VIEW)
  list(
    @CurrentAccountId() accountId: number,
    @Query() request: ListClassSessionsRequest,
  ): Promise<ClassSessionView[]> {
    return this.queries.execute(new ListClassSessionsQuery(accountId, request));
  }

  @Route.get('Read a class session', CLASS_SESSION_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<ClassSessionView> {
    return this.queries.execute(new GetClassSessionQuery(accountId, id));
  }

  @Route.create('Create a class session', CLASS_SESSION_VIEW)
  @ApiErrors({ 400: ['duplicate_class', 'invalid_appointment_type', 'invalid_calendar'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateClassSessionRequest,
  ): Promise<ClassSessionView> {
    return this.commands.execute(new CreateClassSessionCommand(accountId, request));
  }

  @Route.delete('Delete a class session')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteClassSessionCommand(accountId, id));
  }
}
