import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { AppointmentType } from '../catalog/appointment-type.entity';
import { Calendar } from '../catalog/calendar.entity';
import { Label } from '../catalog/label.entity';
import { Form, FormField } from '../forms/form.entity';
import { AppointmentFieldValue } from './appointment-field-value.entity';
import type { Appointment } from './appointment.entity';
import {
  type AppointmentFormView,
  type AppointmentView,
  toAppointmentView,
} from './appointment.view';

/** Turns appointment rows into Appointment objects, reading what they refer to in a few queries. */
@Injectable()
export class AppointmentViews {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async render(
    appointments: Appointment[],
    options: { manager?: EntityManager; excludeForms?: boolean } = {},
  ): Promise<AppointmentView[]> {
    if (appointments.length === 0) return [];
    const manager = options.manager ?? this.dataSource.manager;
    const distinct = (ids: (number | null)[]) => [...new Set(ids.filter((id) => id !== null))];
    const [types, calendars, labels, answers] = await Promise.all([
      manager.findBy(AppointmentType, {
        id: In(distinct(appointments.map((a) => a.appointmentTypeId))),
      }),
      manager.findBy(Calendar, { id: In(distinct(appointments.map((a) => a.calendarId))) }),
      manager.findBy(Label, { id: In([0, ...distinct(appointments.map((a) => a.labelId))]) }),
      options.excludeForms
        ? Promise.resolve([])
        : manager.findBy(AppointmentFieldValue, {
            appointmentId: In(appointments.map((a) => a.id)),
          }),
    ]);
    const fields = answers.length
      ? await manager.findBy(FormField, { id: In(distinct(answers.map((v) => v.fieldId))) })
      : [];
    const forms = answers.length
      ? await manager.findBy(Form, { id: In(distinct(answers.map((v) => v.formId))) })
      : [];
    const typeById = new Map(types.map((t) => [t.id, t]));
    const calendarById = new Map(calendars.map((c) => [c.id, c]));
    const labelById = new Map(labels.map((l) => [l.id, l]));
    const fieldById = new Map(fields.map((f) => [f.id, f]));
    const formById = new Map(forms.map((f) => [f.id, f]));
    const now = Date.now();
    return appointments.map((appointment) => {
      const type = typeById.get(appointment.appointmentTypeId);
      const calendar = calendarById.get(appointment.calendarId);
      const label = appointment.labelId === null ? undefined : labelById.get(appointment.labelId);
      return toAppointmentView(appointment, {
        typeName: type?.name ?? '',
        category: type?.category ?? '',
        calendarName: calendar?.name ?? '',
        calendarTimezone: calendar?.timezone ?? appointment.timezone,
        location: calendar?.location ?? '',
        label: label ? { id: label.id, name: label.name, color: label.color } : null,
        forms: formsOf(
          answers.filter((v) => v.appointmentId === appointment.id),
          fieldById,
          formById,
        ),
        publicUrl: this.config.http.publicUrl,
        secret: this.config.secret,
        now,
      });
    });
  }
}

function formsOf(
  answers: AppointmentFieldValue[],
  fields: Map<number, FormField>,
  forms: Map<number, Form>,
): AppointmentFormView[] {
  const views = new Map<number, AppointmentFormView>();
  const ordered = [...answers].sort(
    (a, b) =>
      a.formId - b.formId ||
      (fields.get(a.fieldId)?.position ?? 0) - (fields.get(b.fieldId)?.position ?? 0),
  );
  for (const answer of ordered) {
    let view = views.get(answer.formId);
    if (!view) {
      view = { id: answer.formId, name: forms.get(answer.formId)?.name ?? '', values: [] };
      views.set(answer.formId, view);
    }
    view.values.push({
      id: answer.fieldId,
      fieldID: answer.fieldId,
      name: fields.get(answer.fieldId)?.name ?? '',
      value: answer.value,
    });
  }
  return [...views.values()];
}
