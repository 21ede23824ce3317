import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateClassSessionRequest, ListClassSessionsQuery } from './class-session.requests';
import type { ClassSessionView } from './class-session.view';
import { ClassSessionsService } from './class-sessions.service';

/** The sessions of class-type offerings (no PUT: a session is moved by deleting and creating). */
@ApiTags('catalog')
@ApiBasicAuth()
@Controller('classes')
export class ClassSessionsController {
  constructor(private readonly sessions: ClassSessionsService) {}

  @Get()
  list(
    @CurrentAccountId() accountId: number,
    @Query() query: ListClassSessionsQuery,
  ): Promise<ClassSessionView[]> {
    return this.sessions.list(accountId, query);
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<ClassSessionView> {
    return this.sessions.get(accountId, id);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateClassSessionRequest,
  ): Promise<ClassSessionView> {
    return this.sessions.create(accountId, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.sessions.delete(accountId, id);
  }
}
