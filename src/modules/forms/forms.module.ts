import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import * as formCommands from './form.commands';
import * as formQueries from './form.queries';
import { FormRepository, FormTables } from './form.repository';
import { FormsController } from './forms.controller';

/** Intake forms, their fields, and the definitions booking checks field values against. */
@Module({
  imports: [FormTables],
  controllers: [FormsController],
  providers: [FormRepository, ...handlersOf(formCommands, formQueries)],
  exports: [FormRepository],
})
export class FormsModule {}
