import { Body, Controller, Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  ApiBasicAuth,
  ApiBody,
  ApiNoContentResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-errors';
import { CurrentAccountId } from '../accounts';
import { CreateClientCommand, DeleteClientCommand, UpdateClientCommand } from './client.commands';
import { ListClientsQuery } from './client.queries';
import {
  ClientMatchRequest,
  CreateClientRequest,
  ListClientsRequest,
  UpdateClientRequest,
} from './client.requests';
import { CLIENT_VIEW, type ClientView } from './client.view';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiView } from '../../common/openapi/view-schema';

/** What a body that fails its attribute rules may give. */
const BODY_ERRORS = [
  'invalid_first_name',
  'invalid_last_name',
  'invalid_email',
  'invalid_phone',
  'invalid_notes',
];
/** What the query naming a client may give. */
const MATCH_ERRORS = [
  'required_first_name',
  'required_last_name',
  'invalid_first_name',
  'invalid_last_name',
  'invalid_phone',
  'invalid_email',
  'ambiguous_client',
];

/** The client list as the reference serves it: a client is named by name (and phone), not an id. */
@ApiTags('clients')
@ApiBasicAuth()
@Controller('clients')
export class ClientsController extends BusController {
  @Get()
  @ApiOperation({
    summary: 'List or search the client list',
    description:
      'The people who booked and those added by hand, by last name then first name. `search` ' +
      'matches first name, last name, full name, e-mail and phone (case-insensitive substring).',
  })
  @ApiView(CLIENT_VIEW, { list: true, description: 'The clients, at most `max`.' })
  @ApiErrors({ 400: ['invalid_search', 'invalid_max'] })
  list(
    @CurrentAccountId() accountId: number,
    @Query() query: ListClientsRequest,
  ): Promise<ClientView[]> {
    return this.queries.execute(new ListClientsQuery(accountId, query));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Add a client',
    description:
      'A client is the name with the e-mail (else with the phone, else the name alone): the same ' +
      'person again is `duplicate_client` (change them with `PUT /clients`).',
  })
  @ApiView(CLIENT_VIEW, { description: 'The client added.' })
  @ApiErrors({
    400: [
      'required_first_name',
      'required_last_name',
      ...BODY_ERRORS,
      'duplicate_client',
      'bad_request',
    ],
    415: ['unsupported_media_type'],
  })
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateClientRequest,
  ): Promise<ClientView> {
    return this.commands.execute(new CreateClientCommand(accountId, request));
  }

  @Put()
  @ApiOperation({
    summary: 'Change the client the query names',
    description:
      'The client is named by `firstName` and `lastName`, and `phone` (or `email`) when several ' +
      'have the name. The body changes what it gives; an empty body changes nothing.',
  })
  @ApiBody({ type: UpdateClientRequest, required: false })
  @ApiView(CLIENT_VIEW, { description: 'The client as changed.' })
  @ApiErrors({
    400: [...new Set([...MATCH_ERRORS, ...BODY_ERRORS]), 'duplicate_client', 'bad_request'],
    404: ['not_found'],
    415: ['unsupported_media_type'],
  })
  update(
    @CurrentAccountId() accountId: number,
    @Query() query: ClientMatchRequest,
    @Body() request: UpdateClientRequest,
  ): Promise<ClientView> {
    return this.commands.execute(new UpdateClientCommand(accountId, query, request));
  }

  @Delete()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove the client the query names',
    description:
      'Named as for `PUT /clients`. Appointments keep the details they were booked with.',
  })
  @ApiNoContentResponse({ description: 'Removed.' })
  @ApiErrors({ 400: MATCH_ERRORS, 404: ['not_found'] })
  delete(@CurrentAccountId() accountId: number, @Query() query: ClientMatchRequest): Promise<void> {
    return this.commands.execute(new DeleteClientCommand(accountId, query));
  }
}
