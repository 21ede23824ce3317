/*
 * What other modules use of forms; they import it from here, not from the module's files.
 */
export { type FieldValue, type FieldValueInput, validateFieldValues } from './field-values';
export { Form, FormField } from './form.entity';
export { FormsModule } from './forms.module';
export { FormsService } from './forms.service';
