import { Body } from '@nestjs/common';
import { ApiNoContentResponse } from '@nestjs/swagger';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { ApiErrors } from '../../common/openapi/api-errors';
import { CurrentAccountId } from '../accounts';
import { CatalogController, Route } from './catalog-routes';
import {
  CreateResourceCommand,
  DeleteResourceCommand,
  UpdateResourceCommand,
} from './resource.commands';
import { GetResourceQuery, ListResourcesQuery } from './resource.queries';
import { CreateResourceRequest, UpdateResourceRequest } from './resource.requests';
import { RESOURCE_VIEW, type ResourceView } from './resource.view';

/** What creating or changing a resource may be refused for, beyond its attributes' own codes. */
const RESOURCE_ERRORS = { 400: ['invalid_appointment_type'], 403: ['forbidden'] };

const LINKS =
  '`appointmentTypeIDs` (live appointment types of the account) replaces the links whole when ' +
  'given; the types linked or unlinked see it in their `resourceIDs`.';

@CatalogController('resources')
export class ResourcesController extends BusController {
  @Route.list(
    'List the resources',
    RESOURCE_VIEW,
    'The rooms and equipment the calendars share, by id; deleted ones are not listed.',
  )
  list(@CurrentAccountId() accountId: number): Promise<ResourceView[]> {
    return this.queries.execute(new ListResourcesQuery(accountId));
  }

  @Route.get('Read a resource', RESOURCE_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<ResourceView> {
    return this.queries.execute(new GetResourceQuery(accountId, id));
  }

  @Route.create('Create a resource', RESOURCE_VIEW, LINKS)
  @ApiErrors(RESOURCE_ERRORS)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateResourceRequest,
  ): Promise<ResourceView> {
    return this.commands.execute(new CreateResourceCommand(accountId, request));
  }

  @Route.update('Change a resource', RESOURCE_VIEW, LINKS)
  @ApiErrors(RESOURCE_ERRORS)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateResourceRequest,
  ): Promise<ResourceView> {
    return this.commands.execute(new UpdateResourceCommand(accountId, id, request));
  }

  @Route.delete(
    'Delete a resource',
    'Refused with 400 `resource_in_use` while non-canceled appointments of its types end after ' +
      'now (the message gives how many); it leaves the `resourceIDs` of its types.',
  )
  // Its own refusals replace the answer swagger gives a 204 route by default: it is said again.
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiErrors({ 400: ['resource_in_use'] })
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteResourceCommand(accountId, id));
  }
}
