import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateFormRequest, UpdateFormRequest } from './form.requests';
import type { FormView } from './form.view';
import { FormsService } from './forms.service';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('forms')
export class FormsController {
  constructor(private readonly forms: FormsService) {}

  @Get()
  list(@CurrentAccountId() accountId: number): Promise<FormView[]> {
    return this.forms.list(accountId);
  }

  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<FormView> {
    return this.forms.get(accountId, id);
  }

  @Post()
  @HttpCode(200)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateFormRequest,
  ): Promise<FormView> {
    return this.forms.create(accountId, request);
  }

  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateFormRequest,
  ): Promise<FormView> {
    return this.forms.update(accountId, id, request);
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.forms.delete(accountId, id);
  }
}
