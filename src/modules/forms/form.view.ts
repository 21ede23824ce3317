import type { Form } from '../catalog';
import type { FieldType, FormField } from './form-field.entity';

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
