/* What other modules use of forms; they import it from here, not from the module's files. */
export { type FieldValue, type FieldValueInput, validateFieldValues } from './field-values';
export { CreateFormCommand } from './form.commands';
export { FormField } from './form-field.entity';
export { ListFormsQuery } from './form.queries';
export { FormRepository } from './form.repository';
export type { FormView } from './form.view';
export { FormsModule } from './forms.module';
