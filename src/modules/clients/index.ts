/*
 * What other modules use of clients; they import it from here, not from the module's files.
 */
export { upsertBookingClient } from './client.repository';
export { ClientsModule } from './clients.module';
