import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { TenantRepository } from '../../common/database/tenant-repository';
import { type TenantRow, findReferenced } from '../../common/database/tenant-rows';
import type { DomainError } from '../../common/errors/domain-error';
import { Addon } from './addon.entity';
import {
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
  AppointmentTypeForm,
} from './appointment-type-links.entity';
import { AppointmentType } from './appointment-type.entity';
import type { AppointmentTypeLinks } from './appointment-type.view';
import { Calendar } from './calendar.entity';
import {
  InvalidAddonError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
  InvalidFormError,
} from './catalog.errors';
import { ClassSession } from './class-session.entity';
import { Form } from './form.entity';
import { Label } from './label.entity';
import { Product, ProductAppointmentType } from './product.entity';

/**
 * The catalog's tables, registered for its module (TypeORM loads the entities modules name); Form
 * for the forms linked to types (the forms module serves them and owns their fields).
 */
export const catalogTables = TypeOrmModule.forFeature([
  Addon,
  AppointmentType,
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
  AppointmentTypeForm,
  Calendar,
  ClassSession,
  Form,
  Label,
  Product,
  ProductAppointmentType,
]);

/** One kind of link a request can replace: the rows it names, and the link rows written for them. */
interface LinkKind {
  entity: EntityTarget<TenantRow>;
  missing: (id: number) => DomainError;
  link: EntityTarget<ObjectLiteral>;
  /** The link row's own columns for the `position`-th row named (besides the type's id). */
  row: (id: number, position: number) => ObjectLiteral;
}

/** The request's lists of links, in the order they are checked and written. */
const LINK_KINDS: Record<keyof AppointmentTypeLinks, LinkKind> = {
  calendarIDs: {
    entity: Calendar,
    missing: (id) => new InvalidCalendarError(id),
    link: AppointmentTypeCalendar,
    row: (calendarId) => ({ calendarId }),
  },
  addonIDs: {
    entity: Addon,
    missing: (id) => new InvalidAddonError(id),
    link: AppointmentTypeAddon,
    row: (addonId) => ({ addonId }),
  },
  formIDs: {
    entity: Form,
    missing: (id) => new InvalidFormError(id),
    link: AppointmentTypeForm,
    row: (formId, position) => ({ formId, position }),
  },
};

@Injectable()
export class AppointmentTypeRepository extends TenantRepository<AppointmentType> {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource, AppointmentType);
  }

  /** The account's types by id, the soft-deleted ones too with `includeDeleted`. */
  listAll(accountId: number, includeDeleted: boolean): Promise<AppointmentType[]> {
    return this.rows().find({
      where: includeDeleted ? { accountId } : { accountId, deletedAt: IsNull() },
      order: { id: 'ASC' },
    });
  }

  /** The types of the ids given, deleted ones included (what refers to them still shows them). */
  byIds(ids: readonly number[], tx?: EntityManager): Promise<AppointmentType[]> {
    return this.rows(tx).findBy({ id: In([...new Set(ids)]) });
  }

  offersCalendar(typeId: number, calendarId: number, tx: EntityManager): Promise<boolean> {
    return tx.existsBy(AppointmentTypeCalendar, { appointmentTypeId: typeId, calendarId });
  }

  /** Replaces the links the request names (each checked to be a live row of the account). */
  async replaceLinks(
    tx: EntityManager,
    type: AppointmentType,
    links: Partial<AppointmentTypeLinks>,
  ): Promise<void> {
    const appointmentTypeId = type.id;
    for (const [attribute, kind] of Object.entries(LINK_KINDS)) {
      const ids = links[attribute as keyof AppointmentTypeLinks];
      if (ids === undefined) continue;
      const rows = await findReferenced(tx, kind.entity, type.accountId, ids, kind.missing);
      await tx.delete(kind.link, { appointmentTypeId });
      if (rows.length > 0)
        await tx.insert(
          kind.link,
          rows.map((row, position) => ({ appointmentTypeId, ...kind.row(row.id, position) })),
        );
    }
  }

  /**
   * The live calendars, addons and forms of each type, in three queries whatever the number of
   * types (a deleted calendar, addon or form drops out of every type that listed it).
   */
  async links(
    types: AppointmentType[],
    tx: EntityManager = this.dataSource.manager,
  ): Promise<Map<number, AppointmentTypeLinks>> {
    const links = new Map<number, AppointmentTypeLinks>(
      types.map((t) => [t.id, { calendarIDs: [], addonIDs: [], formIDs: [] }]),
    );
    if (types.length === 0) return links;
    const typeIds = In(types.map((t) => t.id));
    const [calendars, addons, forms] = await Promise.all([
      tx
        .createQueryBuilder(AppointmentTypeCalendar, 'link')
        .innerJoin(Calendar, 'c', 'c.id = link.calendarId AND c.deletedAt IS NULL')
        .where({ appointmentTypeId: typeIds })
        .orderBy('link.calendarId')
        .getMany(),
      tx
        .createQueryBuilder(AppointmentTypeAddon, 'link')
        .innerJoin(Addon, 'a', 'a.id = link.addonId AND a.deletedAt IS NULL')
        .where({ appointmentTypeId: typeIds })
        .orderBy('link.addonId')
        .getMany(),
      tx
        .createQueryBuilder(AppointmentTypeForm, 'link')
        .innerJoin(Form, 'f', 'f.id = link.formId AND f.deletedAt IS NULL')
        .where({ appointmentTypeId: typeIds })
        .orderBy('link.position')
        .addOrderBy('link.formId')
        .getMany(),
    ]);
    for (const l of calendars) links.get(l.appointmentTypeId)!.calendarIDs.push(l.calendarId);
    for (const l of addons) links.get(l.appointmentTypeId)!.addonIDs.push(l.addonId);
    for (const l of forms) links.get(l.appointmentTypeId)!.formIDs.push(l.formId);
    return links;
  }
}

/** Type ids a product or coupon is to be linked to: 400 unknown or deleted, 403 another account's. */
export async function checkAppointmentTypeIds(
  manager: EntityManager,
  accountId: number,
  ids: readonly number[],
): Promise<void> {
  await findReferenced(
    manager,
    AppointmentType,
    accountId,
    ids,
    (id) => new InvalidAppointmentTypeError(id),
  );
}

/**
 * The link rows (product or coupon → type) of `ownerIds` whose type is still live, by type id
 * ascending: a deleted type disappears from what links to it without the links being rewritten.
 */
export function liveTypeLinks<T extends ObjectLiteral & { appointmentTypeId: number }>(
  manager: EntityManager,
  link: EntityTarget<T>,
  ownerProperty: keyof T & string,
  accountId: number,
  ownerIds: readonly number[],
): Promise<T[]> {
  if (ownerIds.length === 0) return Promise.resolve([]);
  return manager
    .createQueryBuilder(link, 'link')
    .innerJoin(
      AppointmentType,
      'type',
      'type.id = link.appointmentTypeId AND type.accountId = :accountId AND type.deletedAt IS NULL',
      { accountId },
    )
    .where(`link.${ownerProperty} IN (:...ownerIds)`, { ownerIds })
    .orderBy('link.appointmentTypeId', 'ASC')
    .getMany();
}
