import type { Form } from '../catalog';
import { FIELD_TYPES, type FormField } from './form-field.entity';
import {
  flag,
  id,
  int,
  list,
  oneOf,
  orNull,
  text,
  viewSchema,
  type ViewType,
} from '../../common/openapi/view-schema';

/** `GET /forms`, as clients of the reference service know it. */
export type FormView = ViewType<typeof FORM_VIEW>;

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

const FORM_FIELD_VIEW = viewSchema('FormFieldView', {
  id: id(21),
  name: text('Is this your first visit?'),
  type: oneOf(FIELD_TYPES),
  options: orNull(
    list<string>({ type: 'string' }, 'The choices of a dropdown or checkboxes field.'),
  ),
  required: flag(true),
  lines: orNull(int(3, 'Rows of a textarea.')),
});

export const FORM_VIEW = viewSchema('FormView', {
  id: id(3),
  name: text('Intake'),
  description: text(''),
  hidden: flag(false),
  appointmentTypeIDs: list(id(12)),
  fields: list(FORM_FIELD_VIEW.ref),
});
