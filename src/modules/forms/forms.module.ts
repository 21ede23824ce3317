import { Module } from '@nestjs/common';
import { CreateFormHandler, DeleteFormHandler, UpdateFormHandler } from './form.commands';
import { GetFormHandler, ListFormsHandler } from './form.queries';
import { FormRepository, FormTables } from './form.repository';
import { FormsController } from './forms.controller';

/** Intake forms, their fields, and the definitions booking checks field values against. */
@Module({
  imports: [FormTables],
  controllers: [FormsController],
  providers: [
    CreateFormHandler,
    DeleteFormHandler,
    FormRepository,
    GetFormHandler,
    ListFormsHandler,
    UpdateFormHandler,
  ],
  exports: [FormRepository],
})
export class FormsModule {}
