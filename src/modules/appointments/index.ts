/* What other modules use of appointments: they import it from here, not from the module's files. */
export { AppointmentsModule } from './appointments.module';
export { FindAppointmentQuery, RenderAppointmentQuery } from './appointment.queries';
export { type AppointmentView, viewAsOf } from './appointment.view';
export { BookAppointmentCommand } from './book-appointment.command';
export { BookAppointmentRequest } from './book-appointment.requests';
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
