import { Module } from '@nestjs/common';
import { CreateClientHandler, DeleteClientHandler, UpdateClientHandler } from './client.commands';
import { ListClientsHandler } from './client.queries';
import { ClientRepository, ClientTables } from './client.repository';
import { ClientsController } from './clients.controller';

/** The business's client list (`/clients`); bookings write to it through upsertBookingClient. */
@Module({
  imports: [ClientTables],
  controllers: [ClientsController],
  providers: [
    ClientRepository,
    CreateClientHandler,
    DeleteClientHandler,
    ListClientsHandler,
    UpdateClientHandler,
  ],
})
export class ClientsModule {}
