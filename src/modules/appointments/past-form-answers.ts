import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, LessThan, Not } from 'typeorm';
import { Appointment } from '../availability';
import { FormRepository } from '../forms';
import { AppointmentFieldValue } from './appointment-field-value.entity';

/** How far back a client's answers are looked for: their latest earlier appointments. */
export const MAX_EARLIER_APPOINTMENTS = 1000;

/**
 * `GET /appointments/{id}?pastFormAnswers=true`, the reference's "previous answers given to the
 * intake forms of that appointment": for each question of its forms (the live fields of its type's
 * live forms) that the appointment has no answer to, the answer its client gave last before it:
 * on the latest earlier appointment (by start, canceled ones included) of the same account and the
 * same e-mail that answered it, among its client's latest MAX_EARLIER_APPOINTMENTS. A question
 * answered once (a date of birth, an allergy) then shows on every later appointment of that client.
 */
@Injectable()
export class PastFormAnswers {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly forms: FormRepository,
  ) {}

  /** The answers to add to the appointment's own, as if it had given them. */
  async of(appointment: Appointment): Promise<AppointmentFieldValue[]> {
    if (appointment.email === '') return [];
    const manager = this.dataSource.manager;
    const [questions, own] = await Promise.all([
      this.forms.fieldDefinitionsFor(appointment.accountId, appointment.appointmentTypeId),
      manager.find(AppointmentFieldValue, {
        select: { fieldId: true },
        where: { appointmentId: appointment.id },
      }),
    ]);
    const answered = new Set(own.map((answer) => answer.fieldId));
    const open = new Map(questions.filter((q) => !answered.has(q.id)).map((q) => [q.id, q]));
    if (open.size === 0) return [];
    // The client's earlier appointments, latest first (idx_appointments_account_email), then
    // their answers to the open questions (the answers' primary key: appointment, field).
    const earlier = await manager.find(Appointment, {
      select: { id: true },
      where: {
        accountId: appointment.accountId,
        email: appointment.email,
        startsAt: LessThan(appointment.startsAt),
        id: Not(appointment.id),
      },
      order: { startsAt: 'DESC', id: 'DESC' },
      take: MAX_EARLIER_APPOINTMENTS,
    });
    if (earlier.length === 0) return [];
    const rank = new Map(earlier.map((a, i) => [a.id, i]));
    const given = await manager.find(AppointmentFieldValue, {
      where: { appointmentId: In([...rank.keys()]), fieldId: In([...open.keys()]) },
    });
    given.sort((a, b) => rank.get(a.appointmentId)! - rank.get(b.appointmentId)!);
    const latest = new Map<number, AppointmentFieldValue>();
    for (const answer of given) {
      if (latest.has(answer.fieldId)) continue;
      latest.set(answer.fieldId, {
        appointmentId: appointment.id,
        fieldId: answer.fieldId,
        formId: open.get(answer.fieldId)!.formId,
        value: answer.value,
      });
    }
    return [...latest.values()];
  }
}
