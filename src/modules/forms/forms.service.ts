import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, IsNull } from 'typeorm';
import { groupBy } from '../../common/collections/group-by';
import { findOwned, listOwned, softDeleteOwned } from '../../common/database/tenant-rows';
import { AppointmentTypeForm, Form, liveTypeLinks } from '../catalog';
import { RepeatedFieldError } from './field-value.errors';
import { CHECKBOXLIST_SEPARATOR, type FieldDefinition } from './field-values';
import { type FieldType, FormField } from './form-field.entity';
import {
  FieldLinesNotAllowedError,
  FieldNotOnFormError,
  FieldOptionsNotAllowedError,
  FieldOptionsRequiredError,
  OptionWithSeparatorError,
} from './form.errors';
import type { CreateFormRequest, FormFieldRequest, UpdateFormRequest } from './form.requests';
import { type FormView, toFormView } from './form.view';

export const DEFAULT_TEXTAREA_LINES = 3;

const OPTION_TYPES: readonly FieldType[] = ['dropdown', 'checkboxlist'];

type FieldSettings = Pick<FormField, 'name' | 'type' | 'required' | 'options' | 'lines'>;

/** Entry `index` of a request's `fields` as stored: `options` and `lines` only where its type uses them. */
function fieldSettings(entry: FormFieldRequest, index: number): FieldSettings {
  const at = `fields.${index}`;
  const takesOptions = OPTION_TYPES.includes(entry.type);
  if (takesOptions && !entry.options) throw new FieldOptionsRequiredError(at, entry.type);
  if (!takesOptions && entry.options != null) throw new FieldOptionsNotAllowedError(at);
  // A checkboxlist answer joins the chosen options with ", ": an option containing it would be ambiguous.
  const joined =
    entry.type === 'checkboxlist' && entry.options?.find((o) => o.includes(CHECKBOXLIST_SEPARATOR));
  if (joined) throw new OptionWithSeparatorError(at, joined);
  if (entry.type !== 'textarea' && entry.lines != null) throw new FieldLinesNotAllowedError(at);
  return {
    name: entry.name,
    type: entry.type,
    required: entry.required ?? false,
    options: takesOptions ? (entry.options ?? null) : null,
    lines: entry.type === 'textarea' ? (entry.lines ?? DEFAULT_TEXTAREA_LINES) : null,
  };
}

/**
 * The form's fields as `entries` list them, in order: an entry with an `id` updates that live field
 * of the form (which keeps its id), one without adds a field. Throws on the first bad entry, before
 * any field is written.
 */
function fieldRows(
  entries: readonly FormFieldRequest[],
  live: readonly FormField[],
  formId: number,
): FormField[] {
  const byId = new Map(live.map((field) => [field.id, field]));
  const listed = new Set<number>();
  return entries.map((entry, position) => {
    let row: FormField;
    if (entry.id != null) {
      const existing = byId.get(entry.id);
      if (!existing) throw new FieldNotOnFormError(entry.id);
      if (listed.has(entry.id)) throw new RepeatedFieldError(entry.id);
      listed.add(entry.id);
      row = existing;
    } else {
      row = Object.assign(new FormField(), { formId, deletedAt: null });
    }
    return Object.assign(row, fieldSettings(entry, position), { position });
  });
}

@Injectable()
export class FormsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(accountId: number): Promise<FormView[]> {
    const manager = this.dataSource.manager;
    const forms = await listOwned(manager.getRepository(Form), accountId);
    return this.views(manager, accountId, forms);
  }

  async get(accountId: number, id: number): Promise<FormView> {
    const manager = this.dataSource.manager;
    const form = await findOwned(manager.getRepository(Form), accountId, id);
    const [view] = await this.views(manager, accountId, [form]);
    return view;
  }

  async create(accountId: number, request: CreateFormRequest): Promise<FormView> {
    return this.dataSource.transaction(async (tx) => {
      const now = new Date();
      const form = await tx.save(
        tx.create(Form, {
          accountId,
          name: request.name,
          description: request.description ?? '',
          hidden: request.hidden ?? false,
          deletedAt: null,
          createdAt: now,
          updatedAt: now,
        }),
      );
      // A refused list (say, an `id`: no field of a new form has one) rolls the form back.
      await tx.save(fieldRows(request.fields ?? [], [], form.id));
      const [view] = await this.views(tx, accountId, [form]);
      return view;
    });
  }

  async update(accountId: number, id: number, request: UpdateFormRequest): Promise<FormView> {
    return this.dataSource.transaction(async (tx) => {
      const form = await findOwned(tx.getRepository(Form), accountId, id, {
        forUpdate: true,
      });
      if (request.fields !== undefined) {
        const live = await liveFields(tx, [form.id]);
        const rows = fieldRows(request.fields, live, form.id);
        const kept = new Set(rows.map((row) => row.id));
        const dropped = live.filter((field) => !kept.has(field.id)).map((field) => field.id);
        // Soft delete: answers already given keep their question.
        if (dropped.length > 0)
          await tx.update(FormField, { id: In(dropped) }, { deletedAt: new Date() });
        await tx.save(rows);
      }
      if (request.name !== undefined) form.name = request.name;
      if (request.description !== undefined) form.description = request.description;
      if (request.hidden !== undefined) form.hidden = request.hidden;
      form.updatedAt = new Date();
      await tx.save(form);
      const [view] = await this.views(tx, accountId, [form]);
      return view;
    });
  }

  /** Soft delete: answers stored with appointments keep their form and questions. */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.dataSource.getRepository(Form), accountId, id);
  }

  /**
   * What an appointment of the type may answer: the live fields of its live forms, the forms in the
   * order the type lists them (then by id), each form's fields in position order.
   */
  async fieldDefinitionsFor(
    accountId: number,
    appointmentTypeId: number,
  ): Promise<FieldDefinition[]> {
    const manager = this.dataSource.manager;
    const forms = await manager
      .createQueryBuilder(Form, 'form')
      .innerJoin(
        AppointmentTypeForm,
        'link',
        'link.formId = form.id AND link.appointmentTypeId = :appointmentTypeId',
        { appointmentTypeId },
      )
      .where('form.accountId = :accountId AND form.deletedAt IS NULL', { accountId })
      .orderBy('link.position', 'ASC')
      .addOrderBy('form.id', 'ASC')
      .getMany();
    const fields = groupBy(
      await liveFields(
        manager,
        forms.map((form) => form.id),
      ),
      (field) => field.formId,
    );
    return forms.flatMap((form) =>
      (fields.get(form.id) ?? []).map((field) => ({
        id: field.id,
        formId: form.id,
        type: field.type,
        required: field.required,
        options: field.options,
        formHidden: form.hidden,
      })),
    );
  }

  private async views(
    manager: EntityManager,
    accountId: number,
    forms: readonly Form[],
  ): Promise<FormView[]> {
    const ids = forms.map((form) => form.id);
    const fields = groupBy(await liveFields(manager, ids), (field) => field.formId);
    const links = groupBy(
      await liveTypeLinks(manager, AppointmentTypeForm, 'formId', accountId, ids),
      (link) => link.formId,
    );
    return forms.map((form) =>
      toFormView(
        form,
        fields.get(form.id) ?? [],
        (links.get(form.id) ?? []).map((link) => link.appointmentTypeId),
      ),
    );
  }
}

/** The live fields of `formIds`, by form, then position. */
function liveFields(manager: EntityManager, formIds: readonly number[]): Promise<FormField[]> {
  if (formIds.length === 0) return Promise.resolve([]);
  return manager.find(FormField, {
    where: { formId: In(formIds), deletedAt: IsNull() },
    order: { formId: 'ASC', position: 'ASC', id: 'ASC' },
  });
}
