import { Body } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { IdParam } from '../../common/http/id-param';
import { CurrentAccountId } from '../accounts';
import { CreateAddonRequest, UpdateAddonRequest } from './addon.requests';
import { ADDON_VIEW, type AddonView } from './addon.view';
import { CreateAddonCommand, DeleteAddonCommand, UpdateAddonCommand } from './addon.commands';
import { GetAddonQuery, ListAddonsQuery } from './addon.queries';
import { CatalogController, Route } from './catalog-routes';

@CatalogController('appointment-addons')
export class AddonsController extends BusController {
  @Route.list('List the addons', ADDON_VIEW)
  list(@CurrentAccountId() accountId: number): Promise<AddonView[]> {
    return this.queries.execute(new ListAddonsQuery(accountId));
  }

  @Route.get('Read a addon', ADDON_VIEW)
  get(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<AddonView> {
    return this.queries.execute(new GetAddonQuery(accountId, id));
  }

  @Route.create('Create a addon', ADDON_VIEW)
  create(
    @CurrentAccountId() accountId: number,
    @Body() request: CreateAddonRequest,
  ): Promise<AddonView> {
    return this.commands.execute(new CreateAddonCommand(accountId, request));
  }

  @Route.update('Change a addon', ADDON_VIEW)
  update(
    @CurrentAccountId() accountId: number,
    @IdParam() id: number,
    @Body() request: UpdateAddonRequest,
  ): Promise<AddonView> {
    return this.commands.execute(new UpdateAddonCommand(accountId, id, request));
  }

  @Route.delete('Delete a addon')
  delete(@CurrentAccountId() accountId: number, @IdParam() id: number): Promise<void> {
    return this.commands.execute(new DeleteAddonCommand(accountId, id));
  }
}
