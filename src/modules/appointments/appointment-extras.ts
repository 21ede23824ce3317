import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { toId } from '../../common/http/id-list';
import type { Account } from '../accounts';
import type { Appointment, SlotType } from '../availability';
import type { Label } from '../catalog';
import { CertificateRedemptions, kindOf, priceAfterCoupon } from '../certificates';
import { type FieldValue, FormRepository, validateFieldValues } from '../forms';
import { InvalidValueError, TooManyLabelsError } from './appointment.errors';
import { AppointmentRepository } from './appointment.repository';
import { blank, fieldInputs } from './booking-checks';

/** The answers an update gives: the fields it names, and among them the answers to store. */
export interface ChangedAnswers {
  fieldIds: number[];
  values: FieldValue[];
}

/** What an appointment is sold at, with the certificate applied to it (if any). */
export type Sale = Pick<
  Appointment,
  'priceCents' | 'priceSoldCents' | 'certificate' | 'certificateId'
>;

/** The certificate given with a booking, or by an admin's update, and what it applies to. */
export interface SaleRequest {
  /** The type's price and its addons'. */
  priceCents: number;
  typeId: number;
  code: string | undefined;
  /** The client's, whom a certificate bought for someone must belong to. */
  email: string | null;
}

/** Answers to forms, a label, a certificate: checked alike by booking and by update. */
@Injectable()
export class AppointmentExtras {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly forms: FormRepository,
    private readonly certificates: CertificateRedemptions,
  ) {}

  /** A booking's answers to its type's forms, checked by the forms validator. */
  async answers(
    accountId: number,
    type: Pick<SlotType, 'id' | 'hasForms'>,
    fields: unknown[],
    admin: boolean,
  ): Promise<FieldValue[]> {
    const definitions =
      type.hasForms === false ? [] : await this.forms.fieldDefinitionsFor(accountId, type.id);
    return validateFieldValues(definitions, fieldInputs(fields), { asAdmin: admin });
  }

  /**
   * An update's answers, checked against the fields they name (a required field of a visible form
   * cannot be emptied, unless by an admin); the fields left out keep their answers.
   */
  async changedAnswers(
    accountId: number,
    typeId: number,
    fields: unknown[],
    admin: boolean,
  ): Promise<ChangedAnswers> {
    const inputs = fieldInputs(fields);
    const named = new Set(inputs.map((input) => Number(input.id)));
    const definitions = (await this.forms.fieldDefinitionsFor(accountId, typeId)).filter((field) =>
      named.has(field.id),
    );
    // Every id given names one of `definitions`, or validation refuses it.
    const values = validateFieldValues(definitions, inputs, { asAdmin: admin });
    return { fieldIds: definitions.map((field) => field.id), values };
  }

  /** `labels: [{id}]` of a booking or an update: at most one, a live label of the account. */
  async label(accountId: number, labels: unknown[]): Promise<Label | null> {
    if (labels.length === 0) return null;
    if (labels.length > 1) throw new TooManyLabelsError();
    const id = toId((labels[0] as { id?: unknown } | null)?.id);
    if (id === undefined) throw new InvalidValueError('labels');
    return this.appointments.label(accountId, id);
  }

  /**
   * The price sold at with the certificate `code` (none when blank): validated for the type (its
   * row locked), one of its uses taken; a package makes it free, a coupon takes its discount off.
   */
  async sale(
    tx: EntityManager,
    account: Account,
    { priceCents, typeId, code, email }: SaleRequest,
  ): Promise<Sale> {
    if (code === undefined || blank(code))
      return { priceCents, priceSoldCents: priceCents, certificate: null, certificateId: null };
    const resolved = await this.certificates.validate(tx, account, code, typeId, email, {
      forUpdate: true,
    });
    await this.certificates.consumeUse(tx, resolved, typeId);
    const kind = kindOf(resolved);
    const priceSoldCents =
      kind === 'package'
        ? 0
        : kind === 'coupon' && resolved.coupon
          ? priceAfterCoupon(priceCents, resolved.coupon)
          : priceCents;
    return {
      priceCents,
      priceSoldCents,
      certificate: resolved.code,
      certificateId: resolved.certificate?.id ?? null,
    };
  }

  async giveBackUse(tx: EntityManager, appointment: Appointment): Promise<void> {
    const { certificateId, appointmentTypeId } = appointment;
    if (certificateId !== null)
      await this.certificates.releaseUse(tx, certificateId, appointmentTypeId);
  }
}
