import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateClassSessionRequest, ListClassSessionsQuery } from './class-session.requests';
import { CLASS_SESSION_VIEW, type ClassSessionView } from './class-session.view';
import { ClassSessionsService } from './class-sessions.service';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

/** The sessions of class-type offerings (no PUT: a session is moved by deleting and creating). */
@ApiTags('catalog')
@ApiBasicAuth()
@Controller('classes')
export class ClassSessionsController {
  constructor(private readonly sessions: ClassSessionsService) {}

  @ApiOperation({ summary: 'List the class sessions' })
  @ApiView(CLASS_SESSION_VIEW, { list: true })
  @Get()
  list(
    @CurrentAccountId() accountId: number,
    @Query() query: ListClassSessionsQuery,
  ): Promise<ClassSessionView[]> {
    return this.sessions.list(accountId, query);
  }

  @ApiOperation({ summary: 'Read a class session' })
  @ApiView(CLASS_SESSION_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<ClassSessionView> {
    return this.sessions.get(accountId, id);
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
    return this.sessions.create(accountId, request);
  }

  @ApiOperation({ summary: 'Delete a class session' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.sessions.delete(accountId, id);
  }
}
