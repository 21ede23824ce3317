/* What other modules use of appointments: they import it from here, not from the module's files. */
export { AppointmentsModule } from './appointments.module';
export { AppointmentSeries } from './appointment-series.entity';
export { occurrencesOf } from './series-recurrence';
export { FindAppointmentQuery, RenderAppointmentQuery } from './appointment.queries';
export { type AppointmentView, viewAsOf } from './appointment.view';
export { BookAppointmentCommand } from './book-appointment.command';
export { BookAppointmentRequest } from './book-appointment.requests';
export { BookSeriesCommand } from './book-series.command';
export { BookSeriesRequest, CheckSeriesRequest } from './book-series.requests';
export { SeriesUnavailableError } from './appointment.errors';
export { CancelSeriesCommand } from './series.commands';
export { CheckSeriesQuery, GetSeriesQuery } from './series.queries';
export type { CheckedOccurrence } from './series.view';
export { CancelAppointmentCommand } from './cancel-appointment.command';
export { CancelAppointmentRequest } from './cancel-appointment.requests';
export {
  claimedAppointmentId,
  confirmationPage,
  confirmationToken,
  tokenMatches,
} from './confirmation-token';
export { RescheduleAppointmentCommand } from './reschedule-appointment.command';
export { RescheduleAppointmentRequest } from './reschedule-appointment.requests';
