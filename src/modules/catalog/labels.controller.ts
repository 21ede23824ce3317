import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateLabelRequest, UpdateLabelRequest } from './label.requests';
import type { LabelView } from './label.view';
import { LabelsService } from './labels.service';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('labels')
export class LabelsController {
  constructor(private readonly labels: LabelsService) {}

  @Get()
  list(@CurrentAccountId() accountId: number): Promise<LabelView[]> {
    return this.labels.list(accountId);
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<LabelView> {
    return this.labels.get(accountId, id);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateLabelRequest,
  ): Promise<LabelView> {
    return this.labels.create(accountId, request);
  }

  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateLabelRequest,
  ): Promise<LabelView> {
    return this.labels.update(accountId, id, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.labels.delete(accountId, id);
  }
}
