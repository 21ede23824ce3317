import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  AccountCommand,
  AccountItemAction,
  AccountItemCommand,
  SoftDeleteHandler,
} from '../../common/cqrs/account-messages';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { RequiredAttributeError } from '../../common/http/http.errors';
import { toCents } from '../../common/money/money';
import { AppConfig } from '../../config/app-config';
import { AppointmentType } from './appointment-type.entity';
import { AppointmentTypeRepository, markUsesResources } from './appointment-type.repository';
import type { AppointmentTypeAttributes } from './appointment-type.requests';
import { detailsOf } from './appointment-type.queries';
import type { AppointmentTypeDetails } from './appointment-type.view';
import {
  ClassSizeNotApplicableError,
  ClassSizeRequiredError,
  CollectiveClassError,
  TypeHasClassSessionsError,
} from './catalog.errors';
import { copyGiven, newCatalogRow } from './catalog-row.entity';
import { ClassSessionRepository } from './class-session.repository';

export class CreateAppointmentTypeCommand extends AccountCommand<
  AppointmentTypeAttributes,
  AppointmentTypeDetails
> {}

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
      const type = newCatalogRow(AppointmentType, accountId, {
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
        recurrence: null,
        usesResources: false,
        resourceLinks: null,
        assignment: 'first',
        assignmentWeights: null,
        collective: false,
      });
      applyAttributes(type, request);
      const saved = await this.types.save(type, tx);
      await this.types.replaceLinks(tx, saved, request);
      await this.types.keepWeights(tx, saved, request);
      return detailsOf(this.types, this.config, saved, tx);
    });
  }
}

export class UpdateAppointmentTypeCommand extends AccountItemCommand<
  AppointmentTypeAttributes,
  AppointmentTypeDetails
> {}

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
      const kindChanged = wasClass !== (type.kind === 'class');
      if (wasClass && type.kind !== 'class') {
        if (await this.sessions.exists({ appointmentTypeId: type.id }, tx))
          throw new TypeHasClassSessionsError(type.id);
      }
      type.updatedAt = new Date();
      const saved = await this.types.save(type, tx);
      await this.types.replaceLinks(tx, saved, request);
      await this.types.keepWeights(tx, saved, request);
      // The types sharing a resource with it list the class types among them (their sessions).
      if (kindChanged) await markUsesResources(tx, accountId, [id]);
      return detailsOf(this.types, this.config, saved, tx);
    });
  }
}

/** Soft delete: no longer bookable; its appointments keep it; `includeDeleted` lists it. */
export class DeleteAppointmentTypeCommand extends AccountItemAction {}

@CommandHandler(DeleteAppointmentTypeCommand)
export class DeleteAppointmentTypeHandler extends SoftDeleteHandler(AppointmentTypeRepository) {}

/** Copies the given attributes onto the type and checks the rules that span several of them. */
function applyAttributes(type: AppointmentType, request: AppointmentTypeAttributes): void {
  copyGiven(type, request, ['name', 'active', 'description', 'duration', 'category', 'color']);
  copyGiven(type, request, ['private', 'paddingBefore', 'paddingAfter', 'image', 'slotInterval']);
  copyGiven(type, request, ['minHoursInAdvance', 'maxDaysInAdvance', 'requireSmsOptIn']);
  copyGiven(type, request, ['maxPerDay', 'maxPerWeek', 'recurrence', 'assignment', 'collective']);
  if (request.weights !== undefined) type.assignmentWeights = request.weights;
  if (request.price !== undefined) type.priceCents = toCents(request.price);
  if (request.type !== undefined) type.kind = request.type;

  if (type.kind === 'class') {
    if (request.classSize !== undefined) type.classSize = request.classSize;
    if (type.classSize === null) throw new ClassSizeRequiredError();
    if (type.collective) throw new CollectiveClassError();
  } else {
    if (request.classSize !== undefined && request.classSize !== null)
      throw new ClassSizeNotApplicableError();
    type.classSize = null;
  }
}
