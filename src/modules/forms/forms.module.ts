import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppointmentType, AppointmentTypeForm, Form } from '../catalog';
import { FormField } from './form-field.entity';
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
