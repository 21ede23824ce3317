import { InvalidAttributeError } from '../../common/errors/domain-error';

/*
 * A request names a catalog row that is not a live row of the account. The messages of types and
 * calendars are the contract's (POST /appointments gives the same).
 */

export class InvalidAppointmentTypeError extends InvalidAttributeError {
  constructor(id: number | string) {
    super('invalid_appointment_type', `The appointment type "${id}" does not exist.`);
  }
}

export class InvalidCalendarError extends InvalidAttributeError {
  constructor(id: number | string) {
    super('invalid_calendar', `The calendar "${id}" does not exist.`);
  }
}

export class InvalidAddonError extends InvalidAttributeError {
  constructor(id: number | string) {
    super('invalid_addon', `The addon "${id}" does not exist.`);
  }
}

export class InvalidProductError extends InvalidAttributeError {
  constructor(id: number | string) {
    super('invalid_product', `The product "${id}" does not exist.`);
  }
}

/** An appointment type's `formIDs` names a form that is not a live form of the account. */
export class InvalidFormError extends InvalidAttributeError {
  constructor(id: number | string) {
    super('invalid_form', `The form "${id}" does not exist.`);
  }
}

/* Appointment types. */

/** Changing a class into a service would orphan its sessions. */
export class TypeHasClassSessionsError extends InvalidAttributeError {
  constructor(appointmentTypeId: number) {
    super(
      'invalid_type',
      `The appointment type "${appointmentTypeId}" has class sessions: delete them before making it a service.`,
    );
  }
}

export class ClassSizeRequiredError extends InvalidAttributeError {
  constructor() {
    super('required_class_size', 'Attribute "classSize" is required for class types.');
  }
}

export class ClassSizeNotApplicableError extends InvalidAttributeError {
  constructor() {
    super('invalid_class_size', 'Attribute "classSize" applies to class types only.');
  }
}

/* Class sessions. */

export class NotAClassError extends InvalidAttributeError {
  constructor(appointmentTypeId: number) {
    super(
      'invalid_appointment_type',
      `The appointment type "${appointmentTypeId}" is not a class.`,
    );
  }
}

export class CalendarNotOfferingTypeError extends InvalidAttributeError {
  constructor(calendarId: number, appointmentTypeId: number) {
    super(
      'invalid_calendar',
      `The calendar "${calendarId}" does not offer appointment type "${appointmentTypeId}".`,
    );
  }
}

/** `datetime` as the client sent it. */
export class DuplicateClassError extends InvalidAttributeError {
  constructor(appointmentTypeId: number, datetime: string, calendarId: number) {
    super(
      'duplicate_class',
      `A session of appointment type "${appointmentTypeId}" already starts at "${datetime}" on calendar "${calendarId}".`,
    );
  }
}

/* Calendars: `problem` is a short clause (`monday interval 1 has no "end"`). */

export class InvalidHoursError extends InvalidAttributeError {
  constructor(problem: string) {
    super('invalid_hours', `Invalid "hours" attribute value: ${problem}.`);
  }
}

export class InvalidOverridesError extends InvalidAttributeError {
  constructor(problem: string) {
    super('invalid_overrides', `Invalid "overrides" attribute value: ${problem}.`);
  }
}

/* Products. */

/** `{}` is accepted: it is what a gift shows. */
export class GiftTypeCountsError extends InvalidAttributeError {
  constructor() {
    super(
      'invalid_appointment_type_counts',
      'Attribute "appointmentTypeCounts" is not allowed for a product of type "gift".',
    );
  }
}

export class TypeCountsRequiredError extends InvalidAttributeError {
  constructor(kind: string) {
    super(
      'required_appointment_type_counts',
      `Attribute "appointmentTypeCounts" is required for a product of type "${kind}".`,
    );
  }
}
