import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId } from '../accounts';
import { CreateFormRequest, UpdateFormRequest } from './form.requests';
import { FORM_VIEW, type FormView } from './form.view';
import { FormsService } from './forms.service';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

@ApiTags('catalog')
@ApiBasicAuth()
@Controller('forms')
export class FormsController {
  constructor(private readonly forms: FormsService) {}

  @ApiOperation({ summary: 'List the forms' })
  @ApiView(FORM_VIEW, { list: true })
  @Get()
  list(@CurrentAccountId() accountId: number): Promise<FormView[]> {
    return this.forms.list(accountId);
  }

  @ApiOperation({ summary: 'Read a form' })
  @ApiView(FORM_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<FormView> {
    return this.forms.get(accountId, id);
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
    return this.forms.create(accountId, request);
  }

  @ApiOperation({ summary: 'Change a form' })
  @ApiView(FORM_VIEW)
  @Put(`:id${NUMERIC}`)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateFormRequest,
  ): Promise<FormView> {
    return this.forms.update(accountId, id, request);
  }

  @ApiOperation({ summary: 'Delete a form' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.forms.delete(accountId, id);
  }
}
