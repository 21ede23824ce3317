import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateLabelRequest, UpdateLabelRequest } from './label.requests';
import { LABEL_VIEW, type LabelView } from './label.view';
import { CreateLabelCommand, DeleteLabelCommand, UpdateLabelCommand } from './label.commands';
import { GetLabelQuery, ListLabelsQuery } from './label.queries';
import { ApiView } from '../../common/openapi/view-schema';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('labels')
export class LabelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @ApiOperation({ summary: 'List the labels' })
  @ApiView(LABEL_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<LabelView[]> {
    return this.queries.execute(new ListLabelsQuery(accountId));
  }

  @ApiOperation({ summary: 'Read a label' })
  @ApiView(LABEL_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<LabelView> {
    return this.queries.execute(new GetLabelQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a label' })
  @ApiView(LABEL_VIEW)
  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateLabelRequest,
  ): Promise<LabelView> {
    return this.commands.execute(new CreateLabelCommand(accountId, request));
  }

  @ApiOperation({ summary: 'Change a label' })
  @ApiView(LABEL_VIEW)
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateLabelRequest,
  ): Promise<LabelView> {
    return this.commands.execute(new UpdateLabelCommand(accountId, id, request));
  }

  @ApiOperation({ summary: 'Delete a label' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteLabelCommand(accountId, id));
  }
}
