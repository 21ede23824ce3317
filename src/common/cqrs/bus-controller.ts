import { Injectable } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';

/** A controller whose routes each map a request to a command or a query, and its result back. */
@Injectable()
export abstract class BusController {
  constructor(
    protected readonly commands: CommandBus,
    protected readonly queries: QueryBus,
  ) {}
}
