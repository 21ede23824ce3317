import { InvalidAttributeError } from '../../common/errors/domain-error';

/*
 * A request names a catalog row that is not a live row of the account. The messages of types and
 * calendars are the contract's (POST /appointments gives the same).
 */

export const invalidAppointmentType = (id: number | string) =>
  new InvalidAttributeError(
    'invalid_appointment_type',
    `The appointment type "${id}" does not exist.`,
  );

export const invalidCalendar = (id: number | string) =>
  new InvalidAttributeError('invalid_calendar', `The calendar "${id}" does not exist.`);

export const invalidAddon = (id: number | string) =>
  new InvalidAttributeError('invalid_addon', `The addon "${id}" does not exist.`);

export const invalidForm = (id: number | string) =>
  new InvalidAttributeError('invalid_form', `The form "${id}" does not exist.`);

export const invalidProduct = (id: number | string) =>
  new InvalidAttributeError('invalid_product', `The product "${id}" does not exist.`);
