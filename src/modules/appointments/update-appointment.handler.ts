import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import { isEmail } from 'class-validator';
import { DataSource, type EntityManager, In } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { DomainEventPublisher } from '../../common/outbox/domain-event-publisher';
import { Outbox, type PendingEvents } from '../../common/outbox/outbox';
import type { Account } from '../accounts/account.entity';
import { normalizeCode } from '../certificates/certificate-codes';
import { kindOf } from '../certificates/certificate.view';
import { CertificatesService } from '../certificates/certificates.service';
import { priceAfterCoupon } from '../certificates/coupon-price';
import { type FieldValue, validateFieldValues } from '../forms/field-values';
import { FormsService } from '../forms/forms.service';
import {
  AlreadyCanceledError,
  assertClientTextFits,
  blank,
  checkLabel,
  eventPayload,
  retryLockConflicts,
} from './appointment-changes';
import { AppointmentChangedEvent } from './appointment-events';
import { AppointmentFieldValue } from './appointment-field-value.entity';
import { Appointment } from './appointment.entity';
import type { AppointmentView } from './appointment.view';
import { AppointmentViews } from './appointment-views';
import { UpdateAppointmentCommand } from './update-appointment.command';

type Attributes = Partial<
  Pick<Appointment, 'firstName' | 'lastName' | 'email' | 'phone' | 'smsOptIn' | 'notes' | 'labelId'>
>;

/** What the checks before the transaction settled. */
interface Changes {
  attributes: Attributes;
  /** When `fields` was given: the fields it named, and the answers among them to store. */
  answers?: { fieldIds: number[]; values: FieldValue[] };
  /** Admins only: the code to apply, `""` for none. */
  certificate?: string;
}

/**
 * Edits the client's side of an appointment: what is given is checked as booking checks it, then one
 * transaction (the row locked) writes it, replaces the answers given, applies an admin's
 * certificate (the old package use given back, the new one taken) and records `changed`.
 */
@CommandHandler(UpdateAppointmentCommand)
export class UpdateAppointmentHandler implements ICommandHandler<UpdateAppointmentCommand> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly forms: FormsService,
    private readonly certificates: CertificatesService,
    private readonly outbox: Outbox,
    private readonly events: DomainEventPublisher,
    private readonly views: AppointmentViews,
  ) {}

  async execute({
    account,
    appointmentId,
    request,
    mode,
  }: UpdateAppointmentCommand): Promise<AppointmentView> {
    // The account's settings are the principal's, as for booking (see BookAppointmentHandler).
    // 404/403 before any attribute error.
    const current = await findOwned(
      this.dataSource.getRepository(Appointment),
      account.id,
      appointmentId,
    );
    const changes = await this.check(account, current, request, mode.admin);
    const { appointment, pending } = await retryLockConflicts(() =>
      this.dataSource.transaction((tx) => this.apply(tx, account, appointmentId, changes)),
    );
    this.events.publishAfterCommit(pending);
    const [view] = await this.views.render([appointment]);
    return view;
  }

  /** Booking's rules for what is given, in booking's order. */
  private async check(
    account: Account,
    current: Appointment,
    r: UpdateAppointmentCommand['request'],
    admin: boolean,
  ): Promise<Changes> {
    const attributes: Attributes = {};
    if (r.firstName !== undefined) {
      if (blank(r.firstName))
        throw new InvalidAttributeError(
          'required_first_name',
          'Attribute "firstName" is required.',
        );
      assertClientTextFits('firstName', r.firstName);
      attributes.firstName = r.firstName.trim();
    }
    if (r.lastName !== undefined) {
      if (blank(r.lastName))
        throw new InvalidAttributeError('required_last_name', 'Attribute "lastName" is required.');
      assertClientTextFits('lastName', r.lastName);
      attributes.lastName = r.lastName.trim();
    }
    if (r.email !== undefined) {
      if (!admin) {
        if (blank(r.email))
          throw new InvalidAttributeError('required_email', 'Attribute "email" is required.');
        if (!isEmail(r.email.trim()))
          throw new InvalidAttributeError('invalid_email', 'Invalid "email" attribute value.');
      }
      assertClientTextFits('email', r.email);
      attributes.email = r.email.trim().toLowerCase();
    }
    if (r.phone !== undefined) {
      if (!admin && account.requirePhone && blank(r.phone))
        throw new InvalidAttributeError('required_phone', 'Attribute "phone" is required.');
      assertClientTextFits('phone', r.phone);
      attributes.phone = r.phone.trim();
    }
    const answers =
      r.fields === undefined ? undefined : await this.answers(account, current, r.fields, admin);
    if (r.labels !== undefined)
      attributes.labelId =
        (await checkLabel(this.dataSource.manager, account.id, r.labels))?.id ?? null;
    if (r.smsOptIn !== undefined) attributes.smsOptIn = r.smsOptIn;
    if (admin && r.notes !== undefined) attributes.notes = r.notes;
    return { attributes, answers, certificate: admin ? r.certificate : undefined };
  }

  /**
   * The answers given, checked by the forms validator against the fields they name: a value must
   * suit its field, and a required field (of a visible form, unless admin) cannot be emptied; the
   * fields left out keep their answers.
   */
  private async answers(
    account: Account,
    current: Appointment,
    fields: unknown[],
    admin: boolean,
  ): Promise<Changes['answers']> {
    const inputs = fields.map((f) =>
      typeof f === 'object' && f !== null
        ? (f as { id: unknown; value: unknown })
        : { id: f, value: undefined },
    );
    const named = new Set(inputs.map((input) => Number(input.id)));
    const definitions = (
      await this.forms.fieldDefinitionsFor(account.id, current.appointmentTypeId)
    ).filter((field) => named.has(field.id));
    // Every id given names one of `definitions`, or validation refuses it.
    const values = validateFieldValues(definitions, inputs, { asAdmin: admin });
    return { fieldIds: definitions.map((field) => field.id), values };
  }

  private async apply(
    tx: EntityManager,
    account: Account,
    id: number,
    { attributes, answers, certificate }: Changes,
  ): Promise<{ appointment: Appointment; pending: PendingEvents }> {
    const appointment = await findOwned(tx.getRepository(Appointment), account.id, id, {
      forUpdate: true,
    });
    Object.assign(appointment, attributes);
    if (certificate !== undefined)
      await this.applyCertificate(tx, account, appointment, certificate);
    appointment.updatedAt = new Date();
    await tx.save(appointment);
    if (answers && answers.fieldIds.length > 0) {
      await tx.delete(AppointmentFieldValue, {
        appointmentId: appointment.id,
        fieldId: In(answers.fieldIds),
      });
      if (answers.values.length > 0)
        await tx.insert(
          AppointmentFieldValue,
          answers.values.map((v) => ({
            appointmentId: appointment.id,
            fieldId: v.fieldId,
            formId: v.formId,
            value: v.value,
          })),
        );
    }
    const pending = await this.outbox.record(tx, [
      new AppointmentChangedEvent(account.id, eventPayload(appointment, false)),
    ]);
    return { appointment, pending };
  }

  /**
   * Swaps the appointment's certificate as booking would have applied it: the old one's package use
   * is given back, the new one is validated (row locked) and its use taken, the price sold follows.
   */
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
    if (appointment.certificateId !== null)
      await this.certificates.releaseUse(
        tx,
        appointment.certificateId,
        appointment.appointmentTypeId,
      );
    appointment.certificate = null;
    appointment.certificateId = null;
    appointment.priceSoldCents = appointment.priceCents;
    if (code === null) return;
    const typeId = appointment.appointmentTypeId;
    const resolved = await this.certificates.validate(
      tx,
      account,
      certificate,
      typeId,
      appointment.email,
      { forUpdate: true },
    );
    await this.certificates.consumeUse(tx, resolved, typeId);
    appointment.certificate = resolved.code;
    appointment.certificateId = resolved.certificate?.id ?? null;
    const kind = kindOf(resolved);
    if (kind === 'package') appointment.priceSoldCents = 0;
    else if (kind === 'coupon' && resolved.coupon)
      appointment.priceSoldCents = priceAfterCoupon(appointment.priceCents, resolved.coupon);
  }
}
