/* What other modules use of clients: they import this index, never its files. */
export { upsertBookingClient } from './client.repository';
export { ClientsModule } from './clients.module';
