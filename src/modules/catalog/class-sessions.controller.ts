import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateClassSessionRequest, ListClassSessionsRequest } from './class-session.requests';
import { CLASS_SESSION_VIEW, type ClassSessionView } from './class-session.view';
import { CreateClassSessionCommand, DeleteClassSessionCommand } from './class-session.commands';
import { GetClassSessionQuery, ListClassSessionsQuery } from './class-session.queries';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

/** The sessions of class-type offerings (no PUT: a session is moved by deleting and creating). */
@ApiTags('catalog')
@ApiBasicAuth()
@Controller('classes')
export class ClassSessionsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the class sessions' })
  @ApiView(CLASS_SESSION_VIEW, { list: true })
  @Get()
  list(
    @CurrentAccountId() accountId: number,
    @Query() request: ListClassSessionsRequest,
  ): Promise<ClassSessionView[]> {
    return this.queries.execute(new ListClassSessionsQuery(accountId, request));
  }

  @ApiOperation({ summary: 'Read a class session' })
  @ApiView(CLASS_SESSION_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<ClassSessionView> {
    return this.queries.execute(new GetClassSessionQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a class session' })
  @ApiView(CLASS_SESSION_VIEW)
  @Post()
  @HttpCode(200)
  @ApiErrors({ 400: ['duplicate_class', 'invalid_appointment_type', 'invalid_calendar'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateClassSessionRequest,
  ): Promise<ClassSessionView> {
    return this.commands.execute(new CreateClassSessionCommand(accountId, request));
  }

  @ApiOperation({ summary: 'Delete a class session' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteClassSessionCommand(accountId, id));
  }
}
