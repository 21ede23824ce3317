import { AttributeError, DomainError } from '../../common/errors/domain-error';

/*
 * The errors of form field values sent with an appointment (the contract's `invalid_fields` and
 * `required_field`). `<id>` is shown as the client sent it.
 */

/** An id that names no field of the appointment's forms (or one of a form hidden from clients). */
export class UnknownFieldError extends AttributeError(
  'invalid_fields',
  (id: string | number) => `The field "${id}" does not exist on this appointment.`,
) {}

export class RepeatedFieldError extends AttributeError(
  'invalid_fields',
  (id: string | number) => `The field "${id}" is given more than once.`,
) {}

export class RequiredFieldError extends DomainError {
  constructor(readonly fieldId: number) {
    super(400, 'required_field', `The field "${fieldId}" is required.`);
  }
}

/** `reason` is a short clause: `it must be one of the field's options`. */
export class InvalidFieldValueError extends DomainError {
  constructor(
    readonly fieldId: number,
    readonly reason: string,
  ) {
    super(400, 'invalid_fields', `The value of field "${fieldId}" is invalid: ${reason}.`);
  }
}
