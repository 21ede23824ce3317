import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import {
  DataSource,
  type EntityManager,
  type EntityTarget,
  In,
  IsNull,
  type ObjectLiteral,
  Repository,
} from 'typeorm';
import {
  type TenantRow,
  findOwned,
  findReferenced,
  softDeleteOwned,
} from '../../common/database/tenant-rows';
import type { DomainError } from '../../common/errors/domain-error';
import { RequiredAttributeError } from '../../common/http/http.errors';
import { toCents } from '../../common/money/money';
import { AppConfig } from '../../config/app-config';
import { Addon } from './addon.entity';
import {
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
  AppointmentTypeForm,
} from './appointment-type-links.entity';
import { AppointmentType } from './appointment-type.entity';
import type { AppointmentTypeAttributes } from './appointment-type.requests';
import {
  type AppointmentTypeDetails,
  type AppointmentTypeLinks,
  type AppointmentTypeView,
  toAppointmentTypeDetails,
  toAppointmentTypeView,
} from './appointment-type.view';
import { Calendar } from './calendar.entity';
import {
  ClassSizeNotApplicableError,
  ClassSizeRequiredError,
  InvalidAddonError,
  InvalidCalendarError,
  InvalidFormError,
  TypeHasClassSessionsError,
} from './catalog.errors';
import { ClassSession } from './class-session.entity';
import { Form } from './form.entity';

@Injectable()
export class AppointmentTypesService {
  private readonly publicUrl: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(AppointmentType) private readonly types: Repository<AppointmentType>,
    config: AppConfig,
  ) {
    this.publicUrl = config.http.publicUrl;
  }

  async list(accountId: number, includeDeleted = false): Promise<AppointmentTypeView[]> {
    const rows = await this.types.find({
      where: includeDeleted ? { accountId } : { accountId, deletedAt: IsNull() },
      order: { id: 'ASC' },
    });
    const links = await loadLinks(this.dataSource.manager, rows);
    return rows.map((row) => toAppointmentTypeView(row, links.get(row.id)!, this.publicUrl));
  }

  /** A deleted type is still readable by id: its appointments refer to it. */
  async get(accountId: number, id: number): Promise<AppointmentTypeDetails> {
    const type = await findOwned(this.types, accountId, id, { includeDeleted: true });
    return this.details(this.dataSource.manager, type);
  }

  async create(
    accountId: number,
    request: AppointmentTypeAttributes,
  ): Promise<AppointmentTypeDetails> {
    // One DTO serves create and update (AppointmentTypeAttributes): what a create requires is here.
    if (request.name === undefined) throw new RequiredAttributeError('name');
    if (request.duration === undefined) throw new RequiredAttributeError('duration');
    const now = new Date();
    const type = this.types.create({
      accountId,
      name: request.name,
      active: true,
      description: '',
      duration: request.duration,
      priceCents: 0,
      category: '',
      color: '',
      private: false,
      kind: 'service',
      classSize: null,
      paddingBefore: 0,
      paddingAfter: 0,
      image: '',
      slotInterval: null,
      minHoursInAdvance: null,
      maxDaysInAdvance: null,
      requireSmsOptIn: false,
      maxPerDay: null,
      maxPerWeek: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return this.dataSource.transaction(async (tx) => {
      applyAttributes(type, request);
      const saved = await tx.save(type);
      await replaceLinks(tx, saved, request);
      return this.details(tx, saved);
    });
  }

  async update(
    accountId: number,
    id: number,
    request: AppointmentTypeAttributes,
  ): Promise<AppointmentTypeDetails> {
    return this.dataSource.transaction(async (tx) => {
      const type = await findOwned(tx.getRepository(AppointmentType), accountId, id, {
        forUpdate: true,
      });
      const wasClass = type.kind === 'class';
      applyAttributes(type, request);
      if (wasClass && type.kind !== 'class') {
        const sessions = await tx.countBy(ClassSession, { appointmentTypeId: type.id });
        if (sessions > 0) throw new TypeHasClassSessionsError(type.id);
      }
      type.updatedAt = new Date();
      const saved = await tx.save(type);
      await replaceLinks(tx, saved, request);
      return this.details(tx, saved);
    });
  }

  /** Soft delete: clients can no longer book it; its appointments keep it; `includeDeleted` lists it. */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.types, accountId, id);
  }

  private async details(tx: EntityManager, type: AppointmentType): Promise<AppointmentTypeDetails> {
    const links = await loadLinks(tx, [type]);
    return toAppointmentTypeDetails(type, links.get(type.id)!, this.publicUrl);
  }
}

/** Copies the given attributes onto the type and checks the rules that span several of them. */
function applyAttributes(type: AppointmentType, request: AppointmentTypeAttributes): void {
  if (request.name !== undefined) type.name = request.name;
  if (request.active !== undefined) type.active = request.active;
  if (request.description !== undefined) type.description = request.description;
  if (request.duration !== undefined) type.duration = request.duration;
  if (request.price !== undefined) type.priceCents = toCents(request.price);
  if (request.category !== undefined) type.category = request.category;
  if (request.color !== undefined) type.color = request.color;
  if (request.private !== undefined) type.private = request.private;
  if (request.type !== undefined) type.kind = request.type;
  if (request.paddingBefore !== undefined) type.paddingBefore = request.paddingBefore;
  if (request.paddingAfter !== undefined) type.paddingAfter = request.paddingAfter;
  if (request.image !== undefined) type.image = request.image;
  if (request.slotInterval !== undefined) type.slotInterval = request.slotInterval;
  if (request.minHoursInAdvance !== undefined) type.minHoursInAdvance = request.minHoursInAdvance;
  if (request.maxDaysInAdvance !== undefined) type.maxDaysInAdvance = request.maxDaysInAdvance;
  if (request.requireSmsOptIn !== undefined) type.requireSmsOptIn = request.requireSmsOptIn;
  if (request.maxPerDay !== undefined) type.maxPerDay = request.maxPerDay;
  if (request.maxPerWeek !== undefined) type.maxPerWeek = request.maxPerWeek;

  if (type.kind === 'class') {
    if (request.classSize !== undefined) type.classSize = request.classSize;
    if (type.classSize === null) throw new ClassSizeRequiredError();
  } else {
    if (request.classSize !== undefined && request.classSize !== null)
      throw new ClassSizeNotApplicableError();
    type.classSize = null;
  }
}

/** One kind of link a request can replace: the rows it names, and the link rows written for them. */
interface LinkKind {
  entity: EntityTarget<TenantRow>;
  missing: (id: number) => DomainError;
  link: EntityTarget<ObjectLiteral>;
  /** The link row's own columns for the `position`-th row named (besides the type's id). */
  row: (id: number, position: number) => ObjectLiteral;
}

/** The request's lists of links, in the order they are checked and written. */
const LINK_KINDS: Record<'calendarIDs' | 'addonIDs' | 'formIDs', LinkKind> = {
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

/** Replaces the links the request names (each checked to be a live row of the account). */
async function replaceLinks(
  tx: EntityManager,
  type: AppointmentType,
  request: AppointmentTypeAttributes,
): Promise<void> {
  const appointmentTypeId = type.id;
  for (const [attribute, kind] of Object.entries(LINK_KINDS)) {
    const ids = request[attribute as keyof typeof LINK_KINDS];
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
 * The live calendars, addons and forms of each type, in three queries whatever the number of types
 * (a deleted calendar, addon or form drops out of every type that listed it).
 */
async function loadLinks(
  manager: EntityManager,
  types: AppointmentType[],
): Promise<Map<number, AppointmentTypeLinks>> {
  const links = new Map<number, AppointmentTypeLinks>(
    types.map((t) => [t.id, { calendarIDs: [], addonIDs: [], formIDs: [] }]),
  );
  if (types.length === 0) return links;
  const typeIds = In(types.map((t) => t.id));
  const [calendars, addons, forms] = await Promise.all([
    manager
      .createQueryBuilder(AppointmentTypeCalendar, 'link')
      .innerJoin(Calendar, 'c', 'c.id = link.calendarId AND c.deletedAt IS NULL')
      .where({ appointmentTypeId: typeIds })
      .orderBy('link.calendarId')
      .getMany(),
    manager
      .createQueryBuilder(AppointmentTypeAddon, 'link')
      .innerJoin(Addon, 'a', 'a.id = link.addonId AND a.deletedAt IS NULL')
      .where({ appointmentTypeId: typeIds })
      .orderBy('link.addonId')
      .getMany(),
    manager
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
