import { Controller, Get, Query } from '@nestjs/common';
import { ApiBasicAuth, ApiTags } from '@nestjs/swagger';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { CurrentPrincipal, type Principal } from '../accounts';
import {
  ApiAssignmentStats,
  AssignmentStatsRequest,
  type AssignmentStatsView,
} from './assignment-stats';
import { AssignmentStatsQuery } from './assignment-stats.query';

/** Team scheduling's figures (docs/team-scheduling.md), beside the type's catalog routes. */
@ApiTags('appointment-types')
@ApiBasicAuth()
@Controller('appointment-types')
export class AssignmentStatsController extends BusController {
  @Get(`:id${NUMERIC}/assignment-stats`)
  @ApiAssignmentStats()
  stats(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Query() request: AssignmentStatsRequest,
  ): Promise<AssignmentStatsView> {
    return this.queries.execute(new AssignmentStatsQuery(principal.account, id, request));
  }
}
