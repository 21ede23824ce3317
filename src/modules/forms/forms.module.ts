import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppointmentTypeForm } from '../catalog/appointment-type-links.entity';
import { AppointmentType } from '../catalog/appointment-type.entity';
import { Form, FormField } from './form.entity';
import { FormsController } from './forms.controller';
import { FormsService } from './forms.service';

/** Intake forms, their fields, and the definitions booking checks field values against. */
@Module({
  imports: [TypeOrmModule.forFeature([Form, FormField, AppointmentTypeForm, AppointmentType])],
  controllers: [FormsController],
  providers: [FormsService],
  exports: [FormsService],
})
export class FormsModule {}
