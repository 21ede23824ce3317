/* What other modules use of the catalog; they import it from here, not from the module's files. */
export { CreateAddonCommand } from './addon.commands';
export { Addon } from './addon.entity';
export { ListAddonsQuery } from './addon.queries';
export type { AddonView } from './addon.view';
export { AppointmentTypeForm } from './appointment-type-links.entity';
export { CreateAppointmentTypeCommand } from './appointment-type.commands';
export { AppointmentType, type ResourceLinks } from './appointment-type.entity';
export { GetAppointmentTypeQuery, ListAppointmentTypesQuery } from './appointment-type.queries';
export { checkAppointmentTypeIds, liveTypeLinks } from './appointment-type.repository';
export type { AppointmentTypeView } from './appointment-type.view';
export { ALL_BUSY_KINDS, BusyKind } from './calendar-busy-kinds';
export { CreateCalendarCommand } from './calendar.commands';
export { Calendar } from './calendar.entity';
export { ListCalendarsQuery } from './calendar.queries';
export { markBusyKind } from './calendar.repository';
export type { CalendarView } from './calendar.view';
export { IsDescription, IsIntBetweenOrNull } from './catalog-attributes';
export { CatalogRow, copyGiven, newCatalogRow } from './catalog-row.entity';
export {
  InvalidAddonError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
  InvalidProductError,
} from './catalog.errors';
export { CatalogModule } from './catalog.module';
export {
  FREQUENCIES,
  type Frequency,
  MAX_COUNT,
  MIN_COUNT,
  type RecurrenceSettings,
  isRecurrenceSettings,
} from './recurrence-settings';
export { ASSIGNMENTS, type Assignment, type AssignmentWeights, weightOf } from './team-assignment';
export { CatalogController, Route } from './catalog-routes';
export { CreateClassSessionCommand } from './class-session.commands';
export { ClassSession } from './class-session.entity';
export { Form } from './form.entity';
export { CreateLabelCommand } from './label.commands';
export { Label } from './label.entity';
export { CreateProductCommand } from './product.commands';
export { Product, ProductAppointmentType } from './product.entity';
export {
  type DateOverrides,
  type Interval,
  type WeeklyHours,
  intervalsOfDay,
  workingIntervalsOn,
} from './working-hours';
