import { QueryHandler } from '@nestjs/cqrs';
import {
  AccountItemQuery,
  AccountQuery,
  each,
  GetHandler,
  ListHandler,
} from '../../common/cqrs/account-messages';
import { AddonRepository } from './addon.repository';
import { type AddonView, toAddonView } from './addon.view';

export class ListAddonsQuery extends AccountQuery<AddonView[]> {}

@QueryHandler(ListAddonsQuery)
export class ListAddonsHandler extends ListHandler(AddonRepository, each(toAddonView)) {}

export class GetAddonQuery extends AccountItemQuery<AddonView> {}

@QueryHandler(GetAddonQuery)
export class GetAddonHandler extends GetHandler(AddonRepository, each(toAddonView)) {}
