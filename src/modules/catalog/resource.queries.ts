import { QueryHandler } from '@nestjs/cqrs';
import {
  AccountItemQuery,
  AccountQuery,
  GetHandler,
  ListHandler,
} from '../../common/cqrs/account-messages';
import { groupBy } from '../../common/collections/group-by';
import type { Resource } from './resource.entity';
import { ResourceRepository } from './resource.repository';
import { type ResourceView, toResourceView } from './resource.view';

/** The resources with their links to live types, read for all of them at once. */
async function views(resources: Resource[], rows: ResourceRepository, accountId: number) {
  const ids = resources.map((resource) => resource.id);
  const links = groupBy(await rows.typeLinks(accountId, ids), (link) => link.resourceId);
  return resources.map((resource) => toResourceView(resource, links.get(resource.id) ?? []));
}

export class ListResourcesQuery extends AccountQuery<ResourceView[]> {}

@QueryHandler(ListResourcesQuery)
export class ListResourcesHandler extends ListHandler(ResourceRepository, views) {}

export class GetResourceQuery extends AccountItemQuery<ResourceView> {}

@QueryHandler(GetResourceQuery)
export class GetResourceHandler extends GetHandler(ResourceRepository, views) {}
