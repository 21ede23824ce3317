import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { queryPrepared } from '../../common/database/prepared';
import { AppointmentType, Calendar, Form, Label } from '../catalog';
import { FormField } from '../forms';

export type TypeParts = Pick<AppointmentType, 'id' | 'name' | 'category' | 'usesResources'>;
/** A resource a type needs, as an appointment of it shows it. */
export interface ResourceParts {
  typeId: number;
  id: number;
  name: string;
}
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
      'SELECT id, name, category, uses_resources AS usesResources FROM appointment_types WHERE id IN (?)',
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

  /** The live resources of these types (of the account), by type then resource id. */
  resources(accountId: number, typeIds: number[]): Promise<ResourceParts[]> {
    return queryPrepared<ResourceParts[]>(
      this.dataSource.manager,
      `SELECT x.appointment_type_id AS typeId, r.id, r.name
         FROM appointment_type_resources x
         JOIN resources r ON r.id = x.resource_id AND r.deleted_at IS NULL
        WHERE x.appointment_type_id IN (?) AND r.account_id = ?
        ORDER BY x.appointment_type_id, r.id`,
      [typeIds, accountId],
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
