import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { AccountItemQuery } from '../../common/cqrs/account-messages';
import { AppConfig } from '../../config/app-config';
import type { AppointmentType } from './appointment-type.entity';
import { AppointmentTypeRepository } from './appointment-type.repository';
import {
  type AppointmentTypeDetails,
  type AppointmentTypeView,
  toAppointmentTypeDetails,
  toAppointmentTypeView,
} from './appointment-type.view';

/** `includeDeleted` adds the soft-deleted types. */
export class ListAppointmentTypesQuery extends Query<AppointmentTypeView[]> {
  constructor(
    readonly accountId: number,
    readonly includeDeleted = false,
  ) {
    super();
  }
}

@QueryHandler(ListAppointmentTypesQuery)
export class ListAppointmentTypesHandler implements IQueryHandler<ListAppointmentTypesQuery> {
  constructor(
    private readonly types: AppointmentTypeRepository,
    private readonly config: AppConfig,
  ) {}

  async execute({
    accountId,
    includeDeleted,
  }: ListAppointmentTypesQuery): Promise<AppointmentTypeView[]> {
    const types = await this.types.listWithLinks(accountId, includeDeleted);
    return types.map(({ row, links }) =>
      toAppointmentTypeView(row, links, this.config.http.publicUrl),
    );
  }
}

/** A deleted type is still readable by id: its appointments refer to it. */
export class GetAppointmentTypeQuery extends AccountItemQuery<AppointmentTypeDetails> {}

@QueryHandler(GetAppointmentTypeQuery)
export class GetAppointmentTypeHandler implements IQueryHandler<GetAppointmentTypeQuery> {
  constructor(
    private readonly types: AppointmentTypeRepository,
    private readonly config: AppConfig,
  ) {}

  async execute({ accountId, id }: GetAppointmentTypeQuery): Promise<AppointmentTypeDetails> {
    const type = await this.types.find(accountId, id, { includeDeleted: true });
    return detailsOf(this.types, this.config, type);
  }
}

/** The management view of the type, with its live links. */
export async function detailsOf(
  types: AppointmentTypeRepository,
  config: AppConfig,
  type: AppointmentType,
  tx?: EntityManager,
): Promise<AppointmentTypeDetails> {
  const links = await types.links([type], tx);
  return toAppointmentTypeDetails(type, links.get(type.id)!, config.http.publicUrl);
}
