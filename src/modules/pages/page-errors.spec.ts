import { DomainError } from '../../common/errors/domain-error';
import {
  InvalidFieldValueError,
  RequiredFieldError,
  UnknownFieldError,
} from '../forms/field-value.errors';
import { pageErrorOf } from './page-errors';

describe("pageErrorOf: where the booking command's errors are shown", () => {
  it.each([
    [new DomainError(400, 'required_first_name', 'x'), 'firstName', 'Enter your first name.'],
    [new DomainError(400, 'invalid_email', 'x'), 'email', 'Enter a valid e-mail address.'],
    [new DomainError(400, 'required_phone', 'x'), 'phone', 'Enter your phone number.'],
    [new RequiredFieldError(9), 'field:9', 'This question needs an answer.'],
    [
      new InvalidFieldValueError(9, 'it must be "yes" or "no"'),
      'field:9',
      'This answer cannot be used: it must be "yes" or "no".',
    ],
    [new UnknownFieldError(77), 'form', 'The field "77" does not exist on this appointment.'],
    [
      new DomainError(400, 'expired_certificate', 'The certificate "X" is expired.'),
      'certificate',
      'This code has expired.',
    ],
    [
      new DomainError(400, 'not_available', 'x'),
      'time',
      'Sorry, that time is no longer available. Please choose another time.',
    ],
    [
      new DomainError(400, 'no_available_calendar', 'x'),
      'time',
      'Sorry, that time is no longer available. Please choose another time.',
    ],
    [
      new DomainError(400, 'invalid_timezone', 'Invalid timezone "X".'),
      'form',
      'Invalid timezone "X".',
    ],
  ])('%p → %p', (error, place, message) => {
    expect(pageErrorOf(error, 'en')).toEqual({ place, message });
  });

  it('speaks the page’s language', () => {
    expect(pageErrorOf(new DomainError(400, 'invalid_email', 'x'), 'es')).toEqual({
      place: 'email',
      message: 'Escriba un correo electrónico válido.',
    });
    expect(pageErrorOf(new DomainError(409, 'not_available', 'x'), 'de').message).toBe(
      'Diese Uhrzeit ist leider nicht mehr frei. Bitte wählen Sie eine andere.',
    );
  });
});
