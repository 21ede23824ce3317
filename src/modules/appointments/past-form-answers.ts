import { Injectable } from '@nestjs/common';
import type { Appointment } from '../availability';
import { FormRepository } from '../forms';
import type { AppointmentFieldValue } from './appointment-field-value.entity';
import { AppointmentRepository } from './appointment.repository';

/** How far back a client's answers are looked for: their latest earlier appointments. */
export const MAX_EARLIER_APPOINTMENTS = 1000;

/**
 * `GET /appointments/{id}?pastFormAnswers=true` (the reference's "previous answers given to the
 * intake forms"): for each question of its type's live forms it has no answer to, the answer of its
 * client's (e-mail's) latest earlier appointment (by start, canceled ones too) that answered it.
 */
@Injectable()
export class PastFormAnswers {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly forms: FormRepository,
  ) {}

  /** The answers to add to the appointment's own, as if it had given them. */
  async of(appointment: Appointment): Promise<AppointmentFieldValue[]> {
    if (appointment.email === '') return [];
    const [questions, own] = await Promise.all([
      this.forms.fieldDefinitionsFor(appointment.accountId, appointment.appointmentTypeId),
      this.appointments.answeredFieldIds(appointment.id),
    ]);
    const answered = new Set(own);
    const open = new Map(questions.filter((q) => !answered.has(q.id)).map((q) => [q.id, q]));
    if (open.size === 0) return [];
    // The client's earlier appointments, latest first, then their answers to the open questions.
    const earlier = await this.appointments.earlierOfClient(appointment, MAX_EARLIER_APPOINTMENTS);
    if (earlier.length === 0) return [];
    const rank = new Map(earlier.map((id, i) => [id, i]));
    const given = await this.appointments.answersOf(earlier, [...open.keys()]);
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
