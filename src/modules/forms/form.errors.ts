import { InvalidAttributeError } from '../../common/errors/domain-error';

/** A request (an appointment type's `formIDs`) names a form that is not a live form of the account. */
export class InvalidFormError extends InvalidAttributeError {
  constructor(id: number | string) {
    super('invalid_form', `The form "${id}" does not exist.`);
  }
}

/** A `fields` entry of a form update names an id that is not a live field of that form. */
export class FieldNotOnFormError extends InvalidAttributeError {
  constructor(id: number) {
    super('invalid_fields', `The field "${id}" does not exist on this form.`);
  }
}

/** A field definition whose attributes do not fit its type (`options` on a textbox, …). */
export class InvalidFieldDefinitionError extends InvalidAttributeError {
  constructor(message: string) {
    super('invalid_fields', message);
  }
}
