/*
 * What other modules use of forms; they import it from here, not from the module's files.
 */
export { type FieldValue, type FieldValueInput, validateFieldValues } from './field-values';
export { FormField } from './form-field.entity';
export { FormsModule } from './forms.module';
export { FormsService } from './forms.service';
