import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from '../../common/outbox/domain-event';
import type { Account } from '../accounts';
import { normalizeCode } from '../certificates';
import { AppointmentChangedEvent, eventPayload } from './appointment-events';
import { AlreadyCanceledError } from './appointment.errors';
import { AppointmentExtras, type ChangedAnswers } from './appointment-extras';
import type { AppointmentView } from './appointment.view';
import { AppointmentChanges } from './appointment-changes';
import { AppointmentRepository } from './appointment.repository';
import { assertClientName, assertPhone, blank, checkEmail, requireText } from './booking-checks';
import { UpdateAppointmentCommand } from './update-appointment.command';
import type { Appointment } from '../availability';

type Attributes = Partial<
  Pick<Appointment, 'firstName' | 'lastName' | 'email' | 'phone' | 'smsOptIn' | 'notes' | 'labelId'>
>;

/** What the checks before the transaction settled. */
interface Changes {
  attributes: Attributes;
  /** When `fields` was given: the fields it named, and the answers among them to store. */
  answers?: ChangedAnswers;
  /** Admins only: the code to apply, `""` for none. */
  certificate?: string;
}

/** Edits the client's side, checked as booking checks it, in one transaction (the row locked). */
@CommandHandler(UpdateAppointmentCommand)
export class UpdateAppointmentHandler implements ICommandHandler<UpdateAppointmentCommand> {
  constructor(
    private readonly changes: AppointmentChanges,
    private readonly extras: AppointmentExtras,
    private readonly appointments: AppointmentRepository,
  ) {}

  async execute(command: UpdateAppointmentCommand): Promise<AppointmentView> {
    const { account, appointmentId, request, mode } = command;
    // The account's settings are the principal's, as for booking (see BookAppointmentHandler).
    const current = await this.appointments.find(account.id, appointmentId);
    const changes = await this.check(account, current, request, mode.admin);
    // No calendar is locked: the appointment keeps its time.
    return this.changes.change(account.id, appointmentId, [], (tx, appointment) =>
      this.apply(tx, account, appointment, changes),
    );
  }

  /** Booking's rules for what is given, in booking's order. */
  private async check(
    account: Account,
    current: Appointment,
    r: UpdateAppointmentCommand['request'],
    admin: boolean,
  ): Promise<Changes> {
    const attributes: Attributes = {};
    if (r.firstName !== undefined) attributes.firstName = clientName('firstName', r.firstName);
    if (r.lastName !== undefined) attributes.lastName = clientName('lastName', r.lastName);
    if (r.email !== undefined) {
      checkEmail(r.email, admin);
      attributes.email = r.email.trim().toLowerCase();
    }
    if (r.phone !== undefined) {
      if (!admin && account.requirePhone) requireText('phone', r.phone);
      assertPhone(r.phone);
      attributes.phone = r.phone.trim();
    }
    const answers =
      r.fields === undefined
        ? undefined
        : await this.extras.changedAnswers(account.id, current.appointmentTypeId, r.fields, admin);
    if (r.labels !== undefined)
      attributes.labelId = (await this.extras.label(account.id, r.labels))?.id ?? null;
    if (r.smsOptIn !== undefined) attributes.smsOptIn = r.smsOptIn;
    if (admin && r.notes !== undefined) attributes.notes = r.notes;
    return { attributes, answers, certificate: admin ? r.certificate : undefined };
  }

  /** On the row as locked. */
  private async apply(
    tx: EntityManager,
    account: Account,
    appointment: Appointment,
    { attributes, answers, certificate }: Changes,
  ): Promise<DomainEvent[]> {
    Object.assign(appointment, attributes);
    if (certificate !== undefined)
      await this.applyCertificate(tx, account, appointment, certificate);
    appointment.updatedAt = new Date();
    await this.appointments.save(appointment, tx);
    if (answers)
      await this.appointments.writeAnswers(tx, appointment.id, answers.values, answers.fieldIds);
    return [new AppointmentChangedEvent(account.id, eventPayload(appointment, false))];
  }

  /** Swaps the certificate as booking applies one (the old one's package use given back). */
  private async applyCertificate(
    tx: EntityManager,
    account: Account,
    appointment: Appointment,
    certificate: string,
  ): Promise<void> {
    const code = blank(certificate) ? null : normalizeCode(certificate);
    if (code === appointment.certificate) return;
    // A canceled appointment gave its use back already and must not take another.
    if (appointment.canceled) throw new AlreadyCanceledError(appointment.id);
    await this.extras.giveBackUse(tx, appointment);
    const sale = await this.extras.sale(tx, account, {
      priceCents: appointment.priceCents,
      typeId: appointment.appointmentTypeId,
      code: certificate,
      email: appointment.email,
    });
    Object.assign(appointment, sale);
  }
}

/** A name given: not blank, one line as long as its column holds; stored trimmed. */
function clientName(attribute: 'firstName' | 'lastName', value: string): string {
  requireText(attribute, value);
  assertClientName(attribute, value);
  return value.trim();
}
