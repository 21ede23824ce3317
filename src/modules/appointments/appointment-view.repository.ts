import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { AppointmentType, Calendar, Form, Label } from '../catalog';
import { FormField } from '../forms';

export type TypeParts = Pick<AppointmentType, 'id' | 'name' | 'category'>;
export type CalendarParts = Pick<Calendar, 'id' | 'name' | 'timezone' | 'location'>;
export type LabelParts = Pick<Label, 'id' | 'name' | 'color'>;

/** An answer with its question's and form's names, as an appointment's view shows it. */
export interface AnswerRow {
  appointmentId: number;
  fieldId: number;
  formId: number;
  value: string;
  fieldName: string | null;
  position: number | null;
  formName: string | null;
}

/** What views show of the rows appointments refer to, many at once (prepared: find costs more). */
@Injectable()
export class AppointmentViewRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  types(ids: number[]): Promise<TypeParts[]> {
    return queryPrepared<TypeParts[]>(
      this.dataSource.manager,
      'SELECT id, name, category FROM appointment_types WHERE id IN (?)',
      [ids],
    );
  }

  calendars(ids: number[]): Promise<CalendarParts[]> {
    return queryPrepared<CalendarParts[]>(
      this.dataSource.manager,
      'SELECT id, name, timezone, location FROM calendars WHERE id IN (?)',
      [ids],
    );
  }

  labels(ids: number[]): Promise<LabelParts[]> {
    return this.dataSource.manager.findBy(Label, { id: In(ids) });
  }

  answers(appointmentIds: number[]): Promise<AnswerRow[]> {
    return queryPrepared<AnswerRow[]>(
      this.dataSource.manager,
      `SELECT v.appointment_id AS appointmentId, v.field_id AS fieldId, v.form_id AS formId, v.value,
              f.name AS fieldName, f.position, fm.name AS formName
         FROM appointment_field_values v
         LEFT JOIN form_fields f ON f.id = v.field_id
         LEFT JOIN forms fm ON fm.id = v.form_id
        WHERE v.appointment_id IN (?)`,
      [appointmentIds],
    );
  }

  fields(ids: number[]): Promise<FormField[]> {
    return this.dataSource.manager.findBy(FormField, { id: In(ids) });
  }

  forms(ids: number[]): Promise<Form[]> {
    return this.dataSource.manager.findBy(Form, { id: In(ids) });
  }
}
