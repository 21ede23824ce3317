import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { Form } from '../catalog';
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

export class CreateFormCommand extends Command<FormView> {
  constructor(
    readonly accountId: number,
    readonly request: CreateFormRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateFormCommand)
export class CreateFormHandler implements ICommandHandler<CreateFormCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly forms: FormRepository,
  ) {}

  execute({ accountId, request }: CreateFormCommand): Promise<FormView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const now = new Date();
      const form = await this.forms.save(
        Object.assign(new Form(), {
          accountId,
          name: request.name,
          description: request.description ?? '',
          hidden: request.hidden ?? false,
          deletedAt: null,
          createdAt: now,
          updatedAt: now,
        }),
        tx,
      );
      // A refused list (say, an `id`: no field of a new form has one) rolls the form back.
      await this.forms.saveFields(fieldRows(request.fields ?? [], [], form.id), tx);
      const [view] = await this.forms.views(accountId, [form], tx);
      return view;
    });
  }
}

export class UpdateFormCommand extends Command<FormView> {
  constructor(
    readonly accountId: number,
    readonly id: number,
    readonly request: UpdateFormRequest,
  ) {
    super();
  }
}

@CommandHandler(UpdateFormCommand)
export class UpdateFormHandler implements ICommandHandler<UpdateFormCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly forms: FormRepository,
  ) {}

  execute({ accountId, id, request }: UpdateFormCommand): Promise<FormView> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const form = await this.forms.find(accountId, id, { forUpdate: true, tx });
      if (request.fields !== undefined) {
        const live = await this.forms.liveFields([form.id], tx);
        const rows = fieldRows(request.fields, live, form.id);
        const kept = new Set(rows.map((row) => row.id));
        await this.forms.deleteFields(
          live.filter((field) => !kept.has(field.id)).map((field) => field.id),
          tx,
        );
        await this.forms.saveFields(rows, tx);
      }
      if (request.name !== undefined) form.name = request.name;
      if (request.description !== undefined) form.description = request.description;
      if (request.hidden !== undefined) form.hidden = request.hidden;
      form.updatedAt = new Date();
      await this.forms.save(form, tx);
      const [view] = await this.forms.views(accountId, [form], tx);
      return view;
    });
  }
}

/** Soft delete: answers stored with appointments keep their form and questions. */
export class DeleteFormCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteFormCommand)
export class DeleteFormHandler implements ICommandHandler<DeleteFormCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly forms: FormRepository,
  ) {}

  execute({ accountId, id }: DeleteFormCommand): Promise<void> {
    return this.unitOfWork.run(accountId, (tx) => this.forms.softDelete(accountId, id, tx));
  }
}
