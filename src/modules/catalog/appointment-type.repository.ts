import { Injectable, type Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { In } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { type TenantRow, findReferenced } from '../../common/database/tenant-rows';
import type { DomainError } from '../../common/errors/domain-error';
import { Addon } from './addon.entity';
import {
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
  AppointmentTypeForm,
  AppointmentTypeResource,
} from './appointment-type-links.entity';
import { AppointmentType } from './appointment-type.entity';
import type { AppointmentTypeLinks, ListedTypeRow } from './appointment-type.view';
import { Calendar } from './calendar.entity';
import { RepositoryOf } from '../../common/database/tenant-repository';
import {
  InvalidAddonError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
  InvalidFormError,
  InvalidResourceError,
  WeightNotOfTypeError,
} from './catalog.errors';
import { ClassSession } from './class-session.entity';
import { Form } from './form.entity';
import { Label } from './label.entity';
import { Product, ProductAppointmentType } from './product.entity';
import { Resource } from './resource.entity';
import { type AssignmentWeights, weightsOf } from './team-assignment';

/** The catalog's tables (TypeORM loads the entities modules name); Form for the types' links. */
export const catalogTables = TypeOrmModule.forFeature([
  Addon,
  AppointmentType,
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
  AppointmentTypeForm,
  AppointmentTypeResource,
  Calendar,
  ClassSession,
  Form,
  Label,
  Product,
  ProductAppointmentType,
  Resource,
]);

/** One kind of link a request can replace: the rows it names and the link rows written for them. */
interface LinkKind {
  entity: Type<TenantRow>;
  missing: (id: number) => DomainError;
  link: EntityTarget<Record<string, number>>;
  /** The link row's property naming the linked row. */
  column: string;
  /** Whether the links keep the order the request named them in (`position`), else by id. */
  positioned?: true;
}

/** The request's lists of links, in the order they are checked and written. */
const LINK_KINDS: Record<keyof AppointmentTypeLinks, LinkKind> = {
  calendarIDs: {
    entity: Calendar,
    missing: (id) => new InvalidCalendarError(id),
    link: AppointmentTypeCalendar,
    column: 'calendarId',
  },
  addonIDs: {
    entity: Addon,
    missing: (id) => new InvalidAddonError(id),
    link: AppointmentTypeAddon,
    column: 'addonId',
  },
  formIDs: {
    entity: Form,
    missing: (id) => new InvalidFormError(id),
    link: AppointmentTypeForm,
    column: 'formId',
    positioned: true,
  },
  resourceIDs: {
    entity: Resource,
    missing: (id) => new InvalidResourceError(id),
    link: AppointmentTypeResource,
    column: 'resourceId',
  },
};

/** A type's row as the list reads it, with its live links (see listWithLinks). */
export interface ListedType {
  row: ListedTypeRow;
  links: AppointmentTypeLinks;
}

/** The live links of `t` of one kind, as `1,2,3` in the owner's order (null: none). */
const linkIds = (link: string, column: string, target: string, order: string) =>
  `(SELECT GROUP_CONCAT(l.${column} ORDER BY ${order}) FROM ${link} l
    JOIN ${target} x ON x.id = l.${column} AND x.deleted_at IS NULL
    WHERE l.appointment_type_id = t.id)`;

/** listWithLinks's one statement: the account's types by id, each with its four lists of links. */
const LIST_WITH_LINKS = `SELECT t.id, t.account_id AS accountId, t.name, t.active, t.deleted_at AS deletedAt,
  t.description, t.duration, t.price_cents AS priceCents, t.category, t.color, t.private, t.kind,
  t.class_size AS classSize, t.padding_before AS paddingBefore, t.padding_after AS paddingAfter,
  t.image,
  ${linkIds('appointment_type_calendars', 'calendar_id', 'calendars', 'l.calendar_id')} AS calendarIds,
  ${linkIds('appointment_type_addons', 'addon_id', 'addons', 'l.addon_id')} AS addonIds,
  ${linkIds('appointment_type_forms', 'form_id', 'forms', 'l.position, l.form_id')} AS formIds,
  ${linkIds('appointment_type_resources', 'resource_id', 'resources', 'l.resource_id')} AS resourceIds
FROM appointment_types t
WHERE t.account_id = ? AND (? OR t.deleted_at IS NULL)
ORDER BY t.id`;

interface ListedTypeSqlRow extends Omit<ListedTypeRow, 'active' | 'private'> {
  active: number | boolean;
  private: number | boolean;
  calendarIds: string | Buffer | null;
  addonIds: string | Buffer | null;
  formIds: string | Buffer | null;
  resourceIds: string | Buffer | null;
}

const idsOf = (list: string | Buffer | null): number[] =>
  list === null ? [] : String(list).split(',').map(Number);

@Injectable()
export class AppointmentTypeRepository extends RepositoryOf(AppointmentType) {
  /**
   * The account's types by id (the soft-deleted ones too with `includeDeleted`), each with its live
   * calendars, addons, forms and resources in the order `links` gives them, in one prepared
   * statement: the hot read of the scheduling page and `GET /appointment-types` (four TypeORM
   * queries before).
   */
  async listWithLinks(accountId: number, includeDeleted: boolean): Promise<ListedType[]> {
    const rows = await queryPrepared<ListedTypeSqlRow[]>(this.dataSource.manager, LIST_WITH_LINKS, [
      accountId,
      includeDeleted ? 1 : 0,
    ]);
    return rows.map(({ calendarIds, addonIds, formIds, resourceIds, ...row }) => ({
      row: { ...row, active: Boolean(Number(row.active)), private: Boolean(Number(row.private)) },
      links: {
        calendarIDs: idsOf(calendarIds),
        addonIDs: idsOf(addonIds),
        formIDs: idsOf(formIds),
        resourceIDs: idsOf(resourceIds),
      },
    }));
  }

  offersCalendar(typeId: number, calendarId: number, tx: EntityManager): Promise<boolean> {
    return tx.existsBy(AppointmentTypeCalendar, { appointmentTypeId: typeId, calendarId });
  }

  /**
   * Replaces the links the request names (each checked to be a live row of the account); new
   * resources also set the type's `uses_resources` (see markUsesResources).
   */
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
          rows.map((row, position) => ({
            appointmentTypeId,
            [kind.column]: row.id,
            ...(kind.positioned && { position }),
          })),
        );
    }
    if (links.resourceIDs !== undefined)
      await markUsesResources(tx, type.accountId, [appointmentTypeId]);
  }

  /**
   * Keeps the type's `weights` to its calendars: weights given in the request must name calendars of
   * the type (else `invalid_weights`, the transaction undone); a calendar unlinked loses its weight.
   */
  async keepWeights(
    tx: EntityManager,
    type: AppointmentType,
    request: { weights?: AssignmentWeights | null; calendarIDs?: number[] },
  ): Promise<void> {
    if (type.assignmentWeights === null) return;
    if (request.weights === undefined && request.calendarIDs === undefined) return;
    // Its live calendars: one read of `links`' four.
    const calendars = await liveLinks(tx, LINK_KINDS.calendarIDs, [type.id]);
    const kept = weightsOf(
      type.assignmentWeights,
      calendars.map((link) => link.calendarId),
    );
    const keptCount = Object.keys(kept ?? {}).length;
    if (keptCount === Object.keys(type.assignmentWeights).length) return;
    if (request.weights !== undefined) throw new WeightNotOfTypeError();
    type.assignmentWeights = kept;
    await tx.update(
      AppointmentType,
      { id: type.id, accountId: type.accountId },
      { assignmentWeights: kept },
    );
  }

  /**
   * The live calendars, addons, forms and resources of each type, in four queries whatever the
   * number of types (a deleted calendar, addon, form or resource drops out of every type that
   * listed it).
   */
  async links(
    types: AppointmentType[],
    tx: EntityManager = this.dataSource.manager,
  ): Promise<Map<number, AppointmentTypeLinks>> {
    const links = new Map<number, AppointmentTypeLinks>(
      types.map((t) => [t.id, { calendarIDs: [], addonIDs: [], formIDs: [], resourceIDs: [] }]),
    );
    if (types.length === 0) return links;
    const ids = types.map((t) => t.id);
    await Promise.all(
      Object.entries(LINK_KINDS).map(async ([attribute, kind]) => {
        const rows = await liveLinks(tx, kind, ids);
        const key = attribute as keyof AppointmentTypeLinks;
        for (const row of rows) links.get(row.appointmentTypeId)![key].push(row[kind.column]);
      }),
    );
    return links;
  }
}

/** The types' links of one kind to live rows, in the order the owner sees them. */
function liveLinks(
  tx: EntityManager,
  kind: LinkKind,
  typeIds: number[],
): Promise<Record<string, number>[]> {
  const query = tx
    .createQueryBuilder(kind.link, 'link')
    .innerJoin(kind.entity, 'x', `x.id = link.${kind.column} AND x.deletedAt IS NULL`)
    .where({ appointmentTypeId: In(typeIds) });
  if (kind.positioned) query.addOrderBy('link.position');
  return query.addOrderBy(`link.${kind.column}`).getMany();
}

/**
 * Sets `uses_resources` of the account's types `typeIds` to whether each lists a live resource, and
 * `resource_links` (ResourceLinks) of every type that does: availability reads resource use only
 * for those types, and a booking locks and reads by those links (docs/resources.md). Called in the
 * transaction that changes their links, deletes or renames one of their resources or changes its
 * quantity, or changes a type's kind.
 */
export async function markUsesResources(
  tx: EntityManager,
  accountId: number,
  typeIds: readonly number[],
): Promise<void> {
  if (typeIds.length === 0) return;
  // The links of every type that uses a resource may change with any link: all are set again.
  await tx.query(SET_RESOURCE_LINKS_SQL, [accountId, [...new Set(typeIds)]]);
}

/** The live resources of type `t` (as `l`, `r`); RESOURCE_LINKS_OF_T's FROM and WHERE. */
const LIVE_RESOURCES_OF_T = `FROM appointment_type_resources l
    JOIN resources r ON r.id = l.resource_id AND r.deleted_at IS NULL
   WHERE l.appointment_type_id = t.id AND r.account_id = t.account_id`;

/**
 * ResourceLinks of type `t`: its live resources, each with its name, its quantity and the types
 * listing it (deleted ones too: their appointments still use it), and the class types among those;
 * null when it has none.
 */
const RESOURCE_LINKS_OF_T = `(SELECT IF(COUNT(*) = 0, NULL, JSON_OBJECT(
    'resources', JSON_ARRAYAGG(JSON_OBJECT('id', r.id, 'name', r.name, 'quantity', r.quantity, 'types', (
      SELECT JSON_ARRAYAGG(p.appointment_type_id ORDER BY p.appointment_type_id)
        FROM appointment_type_resources p WHERE p.resource_id = r.id)) ORDER BY r.id),
    'classTypes', (
      SELECT JSON_ARRAYAGG(DISTINCT p.appointment_type_id ORDER BY p.appointment_type_id)
        FROM appointment_type_resources cl
        JOIN resources cr ON cr.id = cl.resource_id AND cr.deleted_at IS NULL
        JOIN appointment_type_resources p ON p.resource_id = cl.resource_id
        JOIN appointment_types pt ON pt.id = p.appointment_type_id AND pt.kind = 'class'
       WHERE cl.appointment_type_id = t.id AND cr.account_id = t.account_id)))
  ${LIVE_RESOURCES_OF_T})`;

/** markUsesResources' statement. */
const SET_RESOURCE_LINKS_SQL = `UPDATE appointment_types t
   SET t.uses_resources = EXISTS (SELECT 1 ${LIVE_RESOURCES_OF_T}),
       t.resource_links = ${RESOURCE_LINKS_OF_T}
 WHERE t.account_id = ? AND (t.id IN (?) OR t.uses_resources)`;

/**
 * Type ids a product, coupon or resource is to be linked to: 400 unknown or deleted, 403 another's.
 */
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
 * The link rows (product, coupon or resource → type) of `ownerIds` whose type is still live, by
 * type id ascending: a deleted type disappears from what links to it without the links being
 * rewritten.
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
