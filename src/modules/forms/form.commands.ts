import { CommandHandler } from '@nestjs/cqrs';
import { WriteHandler } from '../../common/cqrs/write-handler';
import {
  AccountCommand,
  AccountItemAction,
  AccountItemCommand,
  SoftDeleteHandler,
} from '../../common/cqrs/account-messages';
import { Form, copyGiven, newCatalogRow } from '../catalog';
import { RepeatedFieldError } from './field-value.errors';
import { CHECKBOXLIST_SEPARATOR } from './field-values';
import { type FieldType, FormField } from './form-field.entity';
import {
  FieldLinesNotAllowedError,
  FieldNotOnFormError,
  FieldOptionsNotAllowedError,
  FieldOptionsRequiredError,
  OptionWithSeparatorError,
} from './form.errors';
import { FormRepository } from './form.repository';
import type { CreateFormRequest, FormFieldRequest, UpdateFormRequest } from './form.requests';
import type { FormView } from './form.view';

const DEFAULT_TEXTAREA_LINES = 3;

const OPTION_TYPES: readonly FieldType[] = ['dropdown', 'checkboxlist'];

type FieldSettings = Pick<FormField, 'name' | 'type' | 'required' | 'options' | 'lines'>;

/** Entry `index` of `fields` as stored: `options` and `lines` only where its type uses them. */
function fieldSettings(entry: FormFieldRequest, index: number): FieldSettings {
  const at = `fields.${index}`;
  const takesOptions = OPTION_TYPES.includes(entry.type);
  if (takesOptions && !entry.options) throw new FieldOptionsRequiredError(at, entry.type);
  if (!takesOptions && entry.options != null) throw new FieldOptionsNotAllowedError(at);
  // A checkboxlist answer joins the chosen options with ", ": an option holding it is ambiguous.
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

export class CreateFormCommand extends AccountCommand<CreateFormRequest, FormView> {}

@CommandHandler(CreateFormCommand)
export class CreateFormHandler extends WriteHandler(FormRepository) {
  execute({ accountId, request }: CreateFormCommand): Promise<FormView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const form = await this.rows.save(
        newCatalogRow(Form, accountId, {
          name: request.name,
          description: request.description ?? '',
          hidden: request.hidden ?? false,
        }),
        tx,
      );
      // A refused list (say, an `id`: no field of a new form has one) rolls the form back.
      await this.rows.saveFields(fieldRows(request.fields ?? [], [], form.id), tx);
      const [view] = await this.rows.views(accountId, [form], tx);
      return view;
    });
  }
}

export class UpdateFormCommand extends AccountItemCommand<UpdateFormRequest, FormView> {}

@CommandHandler(UpdateFormCommand)
export class UpdateFormHandler extends WriteHandler(FormRepository) {
  execute({ accountId, id, request }: UpdateFormCommand): Promise<FormView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const form = await this.rows.find(accountId, id, { forUpdate: true, tx });
      if (request.fields !== undefined) {
        const live = await this.rows.liveFields([form.id], tx);
        const rows = fieldRows(request.fields, live, form.id);
        const kept = new Set(rows.map((row) => row.id));
        await this.rows.deleteFields(
          live.filter((field) => !kept.has(field.id)).map((field) => field.id),
          tx,
        );
        await this.rows.saveFields(rows, tx);
      }
      copyGiven(form, request, ['name', 'description', 'hidden']);
      form.updatedAt = new Date();
      await this.rows.save(form, tx);
      const [view] = await this.rows.views(accountId, [form], tx);
      return view;
    });
  }
}

/** Soft delete: answers stored with appointments keep their form and questions. */
export class DeleteFormCommand extends AccountItemAction {}

@CommandHandler(DeleteFormCommand)
export class DeleteFormHandler extends SoftDeleteHandler(FormRepository) {}
