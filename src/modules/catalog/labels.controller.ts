import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateLabelRequest, UpdateLabelRequest } from './label.requests';
import { LABEL_VIEW, type LabelView } from './label.view';
import { LabelsService } from './labels.service';
import { ApiView } from '../../common/openapi/view-schema';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('labels')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @ApiOperation({ summary: 'List the labels' })
  @ApiView(LABEL_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<LabelView[]> {
    return this.labels.list(accountId);
  }

  @ApiOperation({ summary: 'Read a label' })
  @ApiView(LABEL_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<LabelView> {
    return this.labels.get(accountId, id);
  }

  @ApiOperation({ summary: 'Create a label' })
  @ApiView(LABEL_VIEW)
  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateLabelRequest,
  ): Promise<LabelView> {
    return this.labels.create(accountId, request);
  }

  @ApiOperation({ summary: 'Change a label' })
  @ApiView(LABEL_VIEW)
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateLabelRequest,
  ): Promise<LabelView> {
    return this.labels.update(accountId, id, request);
  }

  @ApiOperation({ summary: 'Delete a label' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.labels.delete(accountId, id);
  }
}
