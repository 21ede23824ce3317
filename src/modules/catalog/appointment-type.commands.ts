import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { RequiredAttributeError } from '../../common/http/http.errors';
import { toCents } from '../../common/money/money';
import { AppConfig } from '../../config/app-config';
import { AppointmentType } from './appointment-type.entity';
import { AppointmentTypeRepository } from './appointment-type.repository';
import type { AppointmentTypeAttributes } from './appointment-type.requests';
import { detailsOf } from './appointment-type.queries';
import type { AppointmentTypeDetails } from './appointment-type.view';
import {
  ClassSizeNotApplicableError,
  ClassSizeRequiredError,
  TypeHasClassSessionsError,
} from './catalog.errors';
import { ClassSessionRepository } from './class-session.repository';

export class CreateAppointmentTypeCommand extends Command<AppointmentTypeDetails> {
  constructor(
    readonly accountId: number,
    readonly request: AppointmentTypeAttributes,
  ) {
    super();
  }
}

@CommandHandler(CreateAppointmentTypeCommand)
export class CreateAppointmentTypeHandler implements ICommandHandler<CreateAppointmentTypeCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly types: AppointmentTypeRepository,
    private readonly config: AppConfig,
  ) {}

  execute({ accountId, request }: CreateAppointmentTypeCommand): Promise<AppointmentTypeDetails> {
    // One DTO serves create and update (AppointmentTypeAttributes): what a create requires is here.
    if (request.name === undefined) throw new RequiredAttributeError('name');
    if (request.duration === undefined) throw new RequiredAttributeError('duration');
    const { name, duration } = request;
    return this.unitOfWork.run(accountId, async (tx) => {
      const now = new Date();
      const type: AppointmentType = Object.assign(new AppointmentType(), {
        accountId,
        name,
        active: true,
        description: '',
        duration,
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
      applyAttributes(type, request);
      const saved = await this.types.save(type, tx);
      await this.types.replaceLinks(tx, saved, request);
      return detailsOf(this.types, this.config, saved, tx);
    });
  }
}

export class UpdateAppointmentTypeCommand extends Command<AppointmentTypeDetails> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: AppointmentTypeAttributes,
  ) {
    super();
  }
}

@CommandHandler(UpdateAppointmentTypeCommand)
export class UpdateAppointmentTypeHandler implements ICommandHandler<UpdateAppointmentTypeCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly types: AppointmentTypeRepository,
    private readonly sessions: ClassSessionRepository,
    private readonly config: AppConfig,
  ) {}

  execute({
    accountId,
    id,
    request,
  }: UpdateAppointmentTypeCommand): Promise<AppointmentTypeDetails> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const type = await this.types.find(accountId, id, { forUpdate: true, tx });
      const wasClass = type.kind === 'class';
      applyAttributes(type, request);
      if (wasClass && type.kind !== 'class') {
        if (await this.sessions.exists({ appointmentTypeId: type.id }, tx))
          throw new TypeHasClassSessionsError(type.id);
      }
      type.updatedAt = new Date();
      const saved = await this.types.save(type, tx);
      await this.types.replaceLinks(tx, saved, request);
      return detailsOf(this.types, this.config, saved, tx);
    });
  }
}

/** Soft delete: clients can no longer book it; its appointments keep it; `includeDeleted` lists it. */
export class DeleteAppointmentTypeCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteAppointmentTypeCommand)
export class DeleteAppointmentTypeHandler implements ICommandHandler<DeleteAppointmentTypeCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly types: AppointmentTypeRepository,
  ) {}

  execute({ accountId, id }: DeleteAppointmentTypeCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.types.softDelete(accountId, id, tx));
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
