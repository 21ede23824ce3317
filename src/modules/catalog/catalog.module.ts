import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import * as addonCommands from './addon.commands';
import * as addonQueries from './addon.queries';
import { AddonRepository } from './addon.repository';
import { AddonsController } from './addons.controller';
import * as appointmentTypeCommands from './appointment-type.commands';
import * as appointmentTypeQueries from './appointment-type.queries';
import { AppointmentTypeRepository, catalogTables } from './appointment-type.repository';
import { AppointmentTypesController } from './appointment-types.controller';
import * as calendarCommands from './calendar.commands';
import * as calendarQueries from './calendar.queries';
import { CalendarRepository } from './calendar.repository';
import { CalendarsController } from './calendars.controller';
import * as classSessionCommands from './class-session.commands';
import * as classSessionQueries from './class-session.queries';
import { ClassSessionRepository } from './class-session.repository';
import { ClassSessionsController } from './class-sessions.controller';
import * as labelCommands from './label.commands';
import * as labelQueries from './label.queries';
import { LabelRepository } from './label.repository';
import { LabelsController } from './labels.controller';
import * as productCommands from './product.commands';
import * as productQueries from './product.queries';
import { ProductRepository } from './product.repository';
import { ProductsController } from './products.controller';
import * as resourceCommands from './resource.commands';
import * as resourceQueries from './resource.queries';
import { ResourceRepository } from './resource.repository';
import { ResourcesController } from './resources.controller';

/** What an account's owner configures before clients can book. */
@Module({
  imports: [catalogTables],
  controllers: [
    AddonsController,
    AppointmentTypesController,
    CalendarsController,
    ClassSessionsController,
    LabelsController,
    ProductsController,
    ResourcesController,
  ],
  providers: [
    AddonRepository,
    AppointmentTypeRepository,
    CalendarRepository,
    ClassSessionRepository,
    LabelRepository,
    ProductRepository,
    ResourceRepository,
    ...handlersOf(
      addonCommands,
      addonQueries,
      appointmentTypeCommands,
      appointmentTypeQueries,
      calendarCommands,
      calendarQueries,
      classSessionCommands,
      classSessionQueries,
      labelCommands,
      labelQueries,
      productCommands,
      productQueries,
      resourceCommands,
      resourceQueries,
    ),
  ],
})
export class CatalogModule {}
