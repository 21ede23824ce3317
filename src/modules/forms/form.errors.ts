import { AttributeError, InvalidAttributeError } from '../../common/errors/domain-error';
import { CHECKBOXLIST_SEPARATOR } from './field-values';

/** A `fields` entry of a form update names an id that is not a live field of that form. */
export class FieldNotOnFormError extends AttributeError(
  'invalid_fields',
  (id: number) => `The field "${id}" does not exist on this form.`,
) {}

/** A field whose attributes do not fit its type (`options` on a textbox); `at` is `fields.2`. */
class InvalidFieldDefinitionError extends InvalidAttributeError {
  constructor(message: string) {
    super('invalid_fields', message);
  }
}

export class FieldOptionsRequiredError extends InvalidFieldDefinitionError {
  constructor(at: string, type: string) {
    super(`Attribute "${at}.options" is required for a ${type} field.`);
  }
}

export class FieldOptionsNotAllowedError extends InvalidFieldDefinitionError {
  constructor(at: string) {
    super(`Attribute "${at}.options" is only for dropdown and checkboxlist fields.`);
  }
}

export class OptionWithSeparatorError extends InvalidFieldDefinitionError {
  constructor(at: string, option: string) {
    super(
      `Option "${option}" of "${at}" cannot contain "${CHECKBOXLIST_SEPARATOR}": it separates the options chosen in a checkboxlist.`,
    );
  }
}

export class FieldLinesNotAllowedError extends InvalidFieldDefinitionError {
  constructor(at: string) {
    super(`Attribute "${at}.lines" is only for textarea fields.`);
  }
}
