import { Module } from '@nestjs/common';
import { CreateAddonHandler, DeleteAddonHandler, UpdateAddonHandler } from './addon.commands';
import { GetAddonHandler, ListAddonsHandler } from './addon.queries';
import { AddonRepository } from './addon.repository';
import { AddonsController } from './addons.controller';
import {
  CreateAppointmentTypeHandler,
  DeleteAppointmentTypeHandler,
  UpdateAppointmentTypeHandler,
} from './appointment-type.commands';
import { GetAppointmentTypeHandler, ListAppointmentTypesHandler } from './appointment-type.queries';
import { AppointmentTypeRepository, catalogTables } from './appointment-type.repository';
import { AppointmentTypesController } from './appointment-types.controller';
import {
  CreateCalendarHandler,
  DeleteCalendarHandler,
  UpdateCalendarHandler,
} from './calendar.commands';
import { GetCalendarHandler, ListCalendarsHandler } from './calendar.queries';
import { CalendarRepository } from './calendar.repository';
import { CalendarsController } from './calendars.controller';
import { CreateClassSessionHandler, DeleteClassSessionHandler } from './class-session.commands';
import { GetClassSessionHandler, ListClassSessionsHandler } from './class-session.queries';
import { ClassSessionRepository } from './class-session.repository';
import { ClassSessionsController } from './class-sessions.controller';
import { CreateLabelHandler, DeleteLabelHandler, UpdateLabelHandler } from './label.commands';
import { GetLabelHandler, ListLabelsHandler } from './label.queries';
import { LabelRepository } from './label.repository';
import { LabelsController } from './labels.controller';
import {
  CreateProductHandler,
  DeleteProductHandler,
  UpdateProductHandler,
} from './product.commands';
import { GetProductHandler, ListProductsHandler } from './product.queries';
import { ProductRepository } from './product.repository';
import { ProductsController } from './products.controller';

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
  ],
  providers: [
    AddonRepository,
    CreateAddonHandler,
    DeleteAddonHandler,
    GetAddonHandler,
    ListAddonsHandler,
    UpdateAddonHandler,
    AppointmentTypeRepository,
    CreateAppointmentTypeHandler,
    DeleteAppointmentTypeHandler,
    GetAppointmentTypeHandler,
    ListAppointmentTypesHandler,
    UpdateAppointmentTypeHandler,
    CalendarRepository,
    CreateCalendarHandler,
    DeleteCalendarHandler,
    GetCalendarHandler,
    ListCalendarsHandler,
    UpdateCalendarHandler,
    ClassSessionRepository,
    CreateClassSessionHandler,
    DeleteClassSessionHandler,
    GetClassSessionHandler,
    ListClassSessionsHandler,
    CreateLabelHandler,
    DeleteLabelHandler,
    GetLabelHandler,
    LabelRepository,
    ListLabelsHandler,
    UpdateLabelHandler,
    ProductRepository,
    CreateProductHandler,
    DeleteProductHandler,
    GetProductHandler,
    ListProductsHandler,
    UpdateProductHandler,
  ],
})
export class CatalogModule {}
