import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateFormRequest, UpdateFormRequest } from './form.requests';
import { FORM_VIEW, type FormView } from './form.view';
import { CreateFormCommand, DeleteFormCommand, UpdateFormCommand } from './form.commands';
import { GetFormQuery, ListFormsQuery } from './form.queries';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('forms')
export class FormsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the forms' })
  @ApiView(FORM_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<FormView[]> {
    return this.queries.execute(new ListFormsQuery(accountId));
  }

  @ApiOperation({ summary: 'Read a form' })
  @ApiView(FORM_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<FormView> {
    return this.queries.execute(new GetFormQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a form' })
  @ApiView(FORM_VIEW)
  @Post()
  @HttpCode(200)
  @ApiErrors({ 400: ['required_fields'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateFormRequest,
  ): Promise<FormView> {
    return this.commands.execute(new CreateFormCommand(accountId, request));
  }

  @ApiOperation({ summary: 'Change a form' })
  @ApiView(FORM_VIEW)
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateFormRequest,
  ): Promise<FormView> {
    return this.commands.execute(new UpdateFormCommand(accountId, id, request));
  }

  @ApiOperation({ summary: 'Delete a form' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteFormCommand(accountId, id));
  }
}
