import { AttributeError } from '../../common/errors/domain-error';
import { WEIGHTS_MESSAGE } from './team-assignment';

/**
 * An id that names no live `thing` of the account: `invalid_<thing>`. The messages of types and
 * calendars are the contract's (POST /appointments gives the same).
 */
const NotALiveRow = (thing: string) =>
  AttributeError(
    `invalid_${thing.replaceAll(' ', '_')}`,
    (id: number | string) => `The ${thing} "${id}" does not exist.`,
  );

export class InvalidAppointmentTypeError extends NotALiveRow('appointment type') {}

export class InvalidCalendarError extends NotALiveRow('calendar') {}

export class InvalidAddonError extends NotALiveRow('addon') {}

export class InvalidProductError extends NotALiveRow('product') {}

export class InvalidFormError extends NotALiveRow('form') {}

export class InvalidResourceError extends NotALiveRow('resource') {}

/* Appointment types. */

/** Changing a class into a service would orphan its sessions. */
export class TypeHasClassSessionsError extends AttributeError(
  'invalid_type',
  (appointmentTypeId: number) =>
    `The appointment type "${appointmentTypeId}" has class sessions: delete them before making it a service.`,
) {}

export class ClassSizeRequiredError extends AttributeError(
  'required_class_size',
  () => 'Attribute "classSize" is required for class types.',
) {}

export class ClassSizeNotApplicableError extends AttributeError(
  'invalid_class_size',
  () => 'Attribute "classSize" applies to class types only.',
) {}

export class CollectiveClassError extends AttributeError(
  'invalid_collective',
  () => 'Attribute "collective" applies to service types only.',
) {}

/** `weights` naming a calendar that is not (or no longer) one of the type's. */
export class WeightNotOfTypeError extends AttributeError(
  'invalid_weights',
  () => WEIGHTS_MESSAGE,
) {}

/* Class sessions. */

export class NotAClassError extends AttributeError(
  'invalid_appointment_type',
  (appointmentTypeId: number) => `The appointment type "${appointmentTypeId}" is not a class.`,
) {}

export class CalendarNotOfferingTypeError extends AttributeError(
  'invalid_calendar',
  (calendarId: number, appointmentTypeId: number) =>
    `The calendar "${calendarId}" does not offer appointment type "${appointmentTypeId}".`,
) {}

/** `datetime` as the client sent it. */
export class DuplicateClassError extends AttributeError(
  'duplicate_class',
  (appointmentTypeId: number, datetime: string, calendarId: number) =>
    `A session of appointment type "${appointmentTypeId}" already starts at "${datetime}" on calendar "${calendarId}".`,
) {}

/* Resources. */

/** A resource that appointments still to come need: deleting it would free units they hold. */
export class ResourceInUseError extends AttributeError(
  'resource_in_use',
  (appointments: number) => `The resource is used by ${appointments} appointment(s) still to come.`,
) {}

/* Calendars: `problem` is a short clause (`monday interval 1 has no "end"`). */

export class InvalidHoursError extends AttributeError(
  'invalid_hours',
  (problem: string) => `Invalid "hours" attribute value: ${problem}.`,
) {}

export class InvalidOverridesError extends AttributeError(
  'invalid_overrides',
  (problem: string) => `Invalid "overrides" attribute value: ${problem}.`,
) {}

/* Products. */

/** `{}` is accepted: it is what a gift shows. */
export class GiftTypeCountsError extends AttributeError(
  'invalid_appointment_type_counts',
  () => 'Attribute "appointmentTypeCounts" is not allowed for a product of type "gift".',
) {}

export class TypeCountsRequiredError extends AttributeError(
  'required_appointment_type_counts',
  (kind: string) =>
    `Attribute "appointmentTypeCounts" is required for a product of type "${kind}".`,
) {}
