/*
 * What other modules use of the catalog; they import it from here, not from the module's files.
 */
export { Addon } from './addon.entity';
export { AddonsService } from './addons.service';
export { AppointmentTypeForm } from './appointment-type-links.entity';
export { checkAppointmentTypeIds, liveTypeLinks } from './appointment-type-references';
export { AppointmentType } from './appointment-type.entity';
export { AppointmentTypesService } from './appointment-types.service';
export { ALL_BUSY_KINDS, BusyKind, insertBusyRow, markBusyKind } from './calendar-busy-kinds';
export { Calendar } from './calendar.entity';
export { CalendarsService } from './calendars.service';
export {
  InvalidAddonError,
  InvalidAppointmentTypeError,
  InvalidCalendarError,
  InvalidProductError,
} from './catalog.errors';
export { CatalogModule } from './catalog.module';
export { ClassSession } from './class-session.entity';
export { ClassSessionsService } from './class-sessions.service';
export { Form } from './form.entity';
export { Label } from './label.entity';
export { CreateLabelCommand } from './label.commands';
export { Product, ProductAppointmentType } from './product.entity';
export { ProductsService } from './products.service';
export { type DateOverrides, type WeeklyHours, workingIntervalsOn } from './working-hours';
