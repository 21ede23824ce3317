import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { DomainEventPublisher } from '../../common/outbox/domain-event-publisher';
import { Outbox, type PendingEvents } from '../../common/outbox/outbox';
import { CertificatesService } from '../certificates/certificates.service';
import {
  AlreadyCanceledError,
  ClientChangeClosedError,
  eventPayload,
  retryLockConflicts,
} from './appointment-changes';
import { AppointmentCanceledEvent, AppointmentChangedEvent } from './appointment-events';
import { Appointment } from './appointment.entity';
import type { AppointmentView } from './appointment.view';
import { AppointmentViews } from './appointment-views';
import { CancelAppointmentCommand } from './cancel-appointment.command';

/**
 * Cancels an appointment in one transaction, its row locked (two cancels of one appointment: one
 * wins, the other is `already_canceled`): the row is marked (which frees its time and seat for
 * availability), a package's use is given back, `canceled` and `changed` are recorded.
 */
@CommandHandler(CancelAppointmentCommand)
export class CancelAppointmentHandler implements ICommandHandler<CancelAppointmentCommand> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly certificates: CertificatesService,
    private readonly outbox: Outbox,
    private readonly events: DomainEventPublisher,
    private readonly views: AppointmentViews,
  ) {}

  async execute(command: CancelAppointmentCommand): Promise<AppointmentView> {
    const { appointment, pending } = await retryLockConflicts(() =>
      this.dataSource.transaction((tx) => this.cancel(tx, command)),
    );
    this.events.publishAfterCommit(pending);
    const [view] = await this.views.render([appointment]);
    return view;
  }

  private async cancel(
    tx: EntityManager,
    { account, appointmentId, request, mode }: CancelAppointmentCommand,
  ): Promise<{ appointment: Appointment; pending: PendingEvents }> {
    const appointment = await findOwned(tx.getRepository(Appointment), account.id, appointmentId, {
      forUpdate: true,
    });
    if (appointment.canceled) throw new AlreadyCanceledError(appointment.id);
    const now = new Date();
    if (!mode.admin && appointment.startsAt <= now)
      throw new ClientChangeClosedError('cancel', appointment.id);
    appointment.canceled = true;
    appointment.canceledAt = now;
    appointment.cancelNote = request.cancelNote ?? null;
    if (mode.admin && request.noShow !== undefined) appointment.noShow = request.noShow;
    appointment.updatedAt = now;
    await tx.save(appointment);
    if (appointment.certificateId !== null)
      await this.certificates.releaseUse(
        tx,
        appointment.certificateId,
        appointment.appointmentTypeId,
      );
    const payload = eventPayload(appointment, mode.noEmail);
    const pending = await this.outbox.record(tx, [
      new AppointmentCanceledEvent(account.id, payload),
      new AppointmentChangedEvent(account.id, payload),
    ]);
    return { appointment, pending };
  }
}
