import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { IdParam } from '../../common/http/id-param';
import { NUMERIC } from '../../common/http/route-catalog';
import { ApiErrors } from '../../common/openapi/api-errors';
import { CurrentAccountId, CurrentPrincipal, type Principal } from '../accounts';
import { CreateSlotHoldRequest, ExtendSlotHoldRequest } from './slot-hold.requests';
import {
  CreateSlotHoldCommand,
  ExtendSlotHoldCommand,
  ReleaseSlotHoldCommand,
} from './slot-hold.commands';
import { GetSlotHoldQuery } from './slot-hold.queries';
import {
  CREATED_SLOT_HOLD_VIEW,
  type CreatedSlotHoldView,
  SLOT_HOLD_VIEW,
  type SlotHoldView,
} from './slot-hold.view';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiView } from '../../common/openapi/view-schema';

const HOLD_ID = ApiParam({
  name: 'id',
  description: "The hold's id. Another account's hold is 404, as one that has ended.",
  schema: { type: 'integer', minimum: 1, example: 41 },
});

/** What a hold is refused for: what POST /appointments refuses the same time for. */
const CREATE_ERRORS = [
  'bad_request',
  'required_appointment_type_id',
  'required_datetime',
  'invalid_appointment_type',
  'invalid_calendar',
  'invalid_addon_ids',
  'invalid_addon',
  'invalid_timezone',
  'invalid_datetime',
  'invalid_minutes',
  'not_available',
  'not_available_min_hours_in_advance',
  'not_available_max_days_in_advance',
  'no_available_calendar',
];

/** `/slot-holds`: hold a time while the client pays or fills in a form (docs/api.md, Slot holds). */
@ApiTags('slot-holds')
@ApiBasicAuth()
@ApiBearerAuth()
@Controller('slot-holds')
export class SlotHoldsController extends BusController {
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Hold a time',
    description:
      'Checked exactly as a client booking of the same time (same codes), under the same lock: ' +
      'while held, the time is gone from `/availability/*` and from other bookings and holds (a ' +
      'class hold takes one seat), and counts toward the booking limits. Book it with ' +
      '`holdToken` in POST /appointments. It ends by itself at `expiresAt`. Nothing is sent to ' +
      'webhooks. At most `maxLiveHolds` (settings) API holds of the account are live at once: ' +
      'one more is 429 `too_many_holds`, with `Retry-After` the seconds until the first of them ends.',
  })
  @ApiView(CREATED_SLOT_HOLD_VIEW, { description: 'The hold, with its token (only here).' })
  @ApiErrors({ 400: CREATE_ERRORS, 403: ['forbidden'], 429: ['too_many_holds'] })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() request: CreateSlotHoldRequest,
  ): Promise<CreatedSlotHoldView> {
    return this.commands.execute(new CreateSlotHoldCommand(principal.account, request));
  }

  @Get(`:id${NUMERIC}`)
  @ApiOperation({ summary: 'A live hold', description: 'An ended hold is 404.' })
  @HOLD_ID
  @ApiView(SLOT_HOLD_VIEW)
  @ApiErrors({ 404: ['not_found'] })
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<SlotHoldView> {
    return this.queries.execute(new GetSlotHoldQuery(accountId, id));
  }

  @Put(`:id${NUMERIC}`)
  @ApiOperation({
    summary: 'Extend a hold',
    description:
      "It now ends `minutes` from now, at most the account's `holdMaxMinutes` after it was made.",
  })
  @HOLD_ID
  @ApiView(SLOT_HOLD_VIEW)
  @ApiErrors({ 400: ['bad_request', 'required_minutes', 'invalid_minutes'], 404: ['not_found'] })
  extend(
    @CurrentPrincipal() principal: Principal,
    @IdParam() id: number,
    @Body() request: ExtendSlotHoldRequest,
  ): Promise<SlotHoldView> {
    return this.commands.execute(new ExtendSlotHoldCommand(principal.account, id, request));
  }

  @Delete(`:id${NUMERIC}`)
  @HttpCode(204)
  @ApiOperation({ summary: 'Release a hold', description: 'The time is offered again at once.' })
  @HOLD_ID
  @ApiNoContentResponse({ description: 'Released.' })
  @ApiErrors({ 404: ['not_found'] })
  release(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new ReleaseSlotHoldCommand(accountId, id));
  }
}
