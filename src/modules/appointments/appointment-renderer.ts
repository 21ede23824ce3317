import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { AccountDirectory } from '../accounts';
import type { Appointment } from '../availability';
import type { FormField } from '../forms';
import type { AppointmentFieldValue } from './appointment-field-value.entity';
import { AppointmentViewRepository } from './appointment-view.repository';
import {
  type AppointmentFormView,
  type AppointmentView,
  type ViewParts,
  type ViewSettings,
  toAppointmentView,
} from './appointment.view';

/** Turns appointment rows into Appointment objects, reading what they refer to in a few queries. */
@Injectable()
export class AppointmentRenderer {
  constructor(
    private readonly rows: AppointmentViewRepository,
    private readonly config: AppConfig,
    private readonly accounts: AccountDirectory,
  ) {}

  /** The account's `clientChangeMinHours` (cached with the account, as authentication reads it). */
  private async changeHours(accountId: number): Promise<number> {
    return (await this.accounts.find(accountId))?.clientChangeMinHours ?? 0;
  }

  /**
   * `excludeForms`: no answers read (`forms: []`); `moreAnswers`: answers to show beside the
   * appointments' own, each under its `appointmentId` (a client's past answers: PastFormAnswers).
   */
  async render(
    appointments: Appointment[],
    options: { excludeForms?: boolean; moreAnswers?: AppointmentFieldValue[] } = {},
  ): Promise<AppointmentView[]> {
    if (appointments.length === 0) return [];
    const labelIds = distinct(appointments.map((a) => a.labelId));
    const [types, calendars, labels, forms, hours] = await Promise.all([
      this.rows.types(distinct(appointments.map((a) => a.appointmentTypeId))),
      this.rows.calendars(distinct(appointments.map((a) => a.calendarId))),
      // Most appointments carry no label: no query for none.
      labelIds.length ? this.rows.labels(labelIds) : [],
      options.excludeForms ? undefined : this.formsOf(appointments, options.moreAnswers),
      // Every caller renders the appointments of one account.
      this.changeHours(appointments[0].accountId),
    ]);
    const typeById = new Map(types.map((t) => [t.id, t]));
    const resources = await this.resourcesOf(
      appointments[0].accountId,
      types.filter((t) => Number(t.usesResources)).map((t) => t.id),
    );
    const calendarById = new Map(calendars.map((c) => [c.id, c]));
    const labelById = new Map(labels.map((l) => [l.id, l]));
    const settings = this.settings(hours);
    return appointments.map((a) => {
      const parts = {
        type: typeById.get(a.appointmentTypeId),
        calendar: calendarById.get(a.calendarId),
        label: a.labelId === null ? undefined : labelById.get(a.labelId),
        forms: forms?.get(a.id) ?? [],
        resources: resources.get(a.appointmentTypeId) ?? [],
      };
      return toAppointmentView(a, parts, settings);
    });
  }

  /** The view of an appointment just booked: only its answers (if any) are read again. */
  async renderWritten(appointment: Appointment, parts: KnownParts): Promise<AppointmentView> {
    const [view] = await this.renderAllWritten([appointment], parts);
    return view;
  }

  /** The views of appointments just booked together (a series): their answers read in one query. */
  async renderAllWritten(
    appointments: Appointment[],
    parts: KnownParts,
  ): Promise<AppointmentView[]> {
    const { accountId, appointmentTypeId } = appointments[0];
    const [forms, hours, resources] = await Promise.all([
      parts.hasAnswers ? this.formsOf(appointments) : undefined,
      this.changeHours(accountId),
      // Read with the booking's check (a client's), else now.
      parts.resources || !parts.type?.usesResources
        ? undefined
        : this.resourcesOf(accountId, [appointmentTypeId]),
    ]);
    const settings = this.settings(hours);
    const typeResources = parts.resources ?? resources?.get(appointmentTypeId) ?? [];
    return appointments.map((a) =>
      toAppointmentView(
        a,
        { ...parts, forms: forms?.get(a.id) ?? [], resources: typeResources },
        settings,
      ),
    );
  }

  async renderOne(
    appointment: Appointment,
    options?: { moreAnswers?: AppointmentFieldValue[] },
  ): Promise<AppointmentView> {
    const [view] = await this.render([appointment], options);
    return view;
  }

  /** The live resources of each type that uses some (most use none: no query then). */
  private async resourcesOf(
    accountId: number,
    typeIds: number[],
  ): Promise<Map<number, { id: number; name: string }[]>> {
    const byType = new Map<number, { id: number; name: string }[]>();
    if (typeIds.length === 0) return byType;
    for (const { typeId, id, name } of await this.rows.resources(accountId, typeIds)) {
      const list = byType.get(Number(typeId)) ?? [];
      list.push({ id: Number(id), name });
      byType.set(Number(typeId), list);
    }
    return byType;
  }

  private settings(clientChangeMinHours: number): ViewSettings {
    const { publicUrl } = this.config.http;
    return { publicUrl, secret: this.config.secret, now: Date.now(), clientChangeMinHours };
  }

  /** The answers of each appointment, grouped by form, by appointment id. */
  private async formsOf(
    appointments: Appointment[],
    moreAnswers: AppointmentFieldValue[] = [],
  ): Promise<Map<number, AppointmentFormView[]>> {
    const rows = await this.rows.answers(appointments.map((a) => a.id));
    const answers: AppointmentFieldValue[] = [...rows, ...moreAnswers];
    if (answers.length === 0) return new Map();
    const fieldById = new Map<number, FieldParts>(
      rows.map((r) => [r.fieldId, { name: r.fieldName ?? '', position: r.position ?? 0 }]),
    );
    const formById = new Map<number, { name: string }>(
      rows.map((r) => [r.formId, { name: r.formName ?? '' }]),
    );
    // Past answers (PastFormAnswers) may name questions and forms the appointments' own do not.
    const missing = (key: 'fieldId' | 'formId', known: Map<number, unknown>) =>
      distinct(moreAnswers.map((v) => v[key])).filter((id) => !known.has(id));
    const missingFields = missing('fieldId', fieldById);
    const missingForms = missing('formId', formById);
    const [fields, forms] = await Promise.all([
      missingFields.length ? this.rows.fields(missingFields) : [],
      missingForms.length ? this.rows.forms(missingForms) : [],
    ]);
    for (const f of fields) fieldById.set(f.id, f);
    for (const f of forms) formById.set(f.id, f);
    const answersOf = (a: Appointment) => answers.filter((v) => v.appointmentId === a.id);
    return new Map(
      appointments.map((a) => [a.id, groupAnswers(answersOf(a), fieldById, formById)]),
    );
  }
}

type FieldParts = Pick<FormField, 'name' | 'position'>;

/** What the writer of an appointment already holds (see AppointmentRenderer.renderWritten). */
export interface KnownParts extends Omit<ViewParts, 'forms' | 'resources' | 'type'> {
  type: (ViewParts['type'] & { usesResources?: boolean }) | undefined;
  /** The type's live resources, if the booking read them (SlotContext.resources). */
  resources?: ViewParts['resources'];
  /** Whether answers to forms were stored with it (they are read back, ordered, to show them). */
  hasAnswers: boolean;
}

function distinct(ids: (number | null)[]): number[] {
  return [...new Set(ids.filter((id) => id !== null))];
}

function groupAnswers(
  answers: AppointmentFieldValue[],
  fields: Map<number, FieldParts>,
  forms: Map<number, { name: string }>,
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
