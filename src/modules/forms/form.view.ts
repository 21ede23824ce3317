import type { Form } from '../catalog';
import type { FieldType, FormField } from './form-field.entity';
import {
  flag,
  id,
  int,
  list,
  oneOf,
  orNull,
  text,
  viewSchema,
} from '../../common/openapi/view-schema';
import { FIELD_TYPES } from './form-field.entity';

/** `GET /forms`, as clients of the reference service know it. */
export interface FormView {
  id: number;
  name: string;
  description: string;
  hidden: boolean;
  appointmentTypeIDs: number[];
  fields: FormFieldView[];
}

export interface FormFieldView {
  id: number;
  name: string;
  type: FieldType;
  options: string[] | null;
  required: boolean;
  lines: number | null;
}

/** `fields`: the live fields in position order; `appointmentTypeIDs`: live types, ascending. */
export function toFormView(
  form: Form,
  fields: readonly FormField[],
  appointmentTypeIDs: number[],
): FormView {
  return {
    id: form.id,
    name: form.name,
    description: form.description,
    hidden: form.hidden,
    appointmentTypeIDs,
    fields: fields.map((field) => ({
      id: field.id,
      name: field.name,
      type: field.type,
      options: field.options,
      required: field.required,
      lines: field.lines,
    })),
  };
}

export const FORM_FIELD_VIEW = viewSchema<FormFieldView>('FormFieldView', {
  id: id(21),
  name: text('Is this your first visit?'),
  type: oneOf(FIELD_TYPES),
  options: orNull(list({ type: 'string' }, 'The choices of a dropdown or checkboxes field.')),
  required: flag(true),
  lines: orNull(int(3, 'Rows of a textarea.')),
});

export const FORM_VIEW = viewSchema<FormView>('FormView', {
  id: id(3),
  name: text('Intake'),
  description: text(''),
  hidden: flag(false),
  appointmentTypeIDs: list(id(12)),
  fields: list(FORM_FIELD_VIEW.ref),
});
