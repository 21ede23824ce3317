import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Addon } from './addon.entity';
import { AddonsController } from './addons.controller';
import { AddonsService } from './addons.service';
import {
  AppointmentTypeAddon,
  AppointmentTypeCalendar,
  AppointmentTypeForm,
} from './appointment-type-links.entity';
import { AppointmentType } from './appointment-type.entity';
import { AppointmentTypesController } from './appointment-types.controller';
import { AppointmentTypesService } from './appointment-types.service';
import { Calendar } from './calendar.entity';
import { CalendarsController } from './calendars.controller';
import { CalendarsService } from './calendars.service';
import { ClassSession } from './class-session.entity';
import { ClassSessionsController } from './class-sessions.controller';
import { ClassSessionsService } from './class-sessions.service';
import { Label } from './label.entity';
import { LabelsController } from './labels.controller';
import { CreateLabelHandler, DeleteLabelHandler, UpdateLabelHandler } from './label.commands';
import { GetLabelHandler, ListLabelsHandler } from './label.queries';
import { LabelRepository } from './label.repository';
import { Product, ProductAppointmentType } from './product.entity';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';
import { Form } from './form.entity';

/** What an account's owner configures before clients can book. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Addon,
      AppointmentType,
      AppointmentTypeAddon,
      AppointmentTypeCalendar,
      AppointmentTypeForm,
      Calendar,
      ClassSession,
      // The forms linked to types (the forms module serves them and owns their fields).
      Form,
      Label,
      Product,
      ProductAppointmentType,
    ]),
  ],
  controllers: [
    AddonsController,
    AppointmentTypesController,
    CalendarsController,
    ClassSessionsController,
    LabelsController,
    ProductsController,
  ],
  providers: [
    CreateLabelHandler,
    DeleteLabelHandler,
    GetLabelHandler,
    LabelRepository,
    ListLabelsHandler,
    UpdateLabelHandler,
    AddonsService,
    AppointmentTypesService,
    CalendarsService,
    ClassSessionsService,
    ProductsService,
  ],
  exports: [
    AddonsService,
    AppointmentTypesService,
    CalendarsService,
    ClassSessionsService,
    ProductsService,
  ],
})
export class CatalogModule {}
