import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import * as clientCommands from './client.commands';
import * as clientQueries from './client.queries';
import { ClientRepository, ClientTables } from './client.repository';
import { ClientsController } from './clients.controller';

/** The client list (`/clients`); bookings write to it through upsertBookingClient. */
@Module({
  imports: [ClientTables],
  controllers: [ClientsController],
  providers: [ClientRepository, ...handlersOf(clientCommands, clientQueries)],
})
export class ClientsModule {}
