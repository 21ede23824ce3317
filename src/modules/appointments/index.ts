/*
 * What other modules use of appointments; they import it from here, not from the module's files.
 */
export { confirmationPage } from './confirmation-token';
export { AppointmentsModule } from './appointments.module';
