import { Body, Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiBasicAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
import { CreateBlockCommand, DeleteBlockCommand } from './block.commands';
import { GetBlockQuery, ListBlocksQuery } from './block.queries';
import { CreateBlockRequest, ListBlocksRequest } from './block.requests';
import { BLOCK_VIEW, type BlockView } from './block.view';
import { ApiView } from '../../common/openapi/view-schema';
import { ApiErrors } from '../../common/openapi/api-errors';

/** Time taken off a calendar (no PUT: a block is changed by deleting and creating). */
@ApiTags('availability')
@ApiBasicAuth()
@Controller('blocks')
export class BlocksController extends BusController {
  @ApiOperation({ summary: 'List the blocks' })
  @ApiView(BLOCK_VIEW, { list: true })
  @Get()
  @ApiErrors({ 400: ['invalid_calendar'] })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() request: ListBlocksRequest,
  ): Promise<BlockView[]> {
    return this.queries.execute(new ListBlocksQuery(principal.account, request));
  }

  @ApiOperation({ summary: 'Read a block' })
  @ApiView(BLOCK_VIEW)
  @Get(`:id${NUMERIC}`)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<BlockView> {
    return this.queries.execute(new GetBlockQuery(accountId, id));
  }

  @ApiOperation({ summary: 'Create a block' })
  @ApiView(BLOCK_VIEW)
  @Post()
  @HttpCode(200)
  @ApiErrors({ 400: ['invalid_calendar'], 422: ['invalid_time'] })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateBlockRequest,
  ): Promise<BlockView> {
    return this.commands.execute(new CreateBlockCommand(accountId, request));
  }

  @ApiOperation({ summary: 'Delete a block' })
  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteBlockCommand(accountId, id));
  }
}
