import { Injectable } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type EntityManager, In, IsNull } from 'typeorm';
import { groupBy } from '../../common/collections/group-by';
import { RepositoryOf } from '../../common/database/tenant-repository';
import { AppointmentType, AppointmentTypeForm, Form, liveTypeLinks } from '../catalog';
import type { FieldDefinition } from './field-values';
import { FormField } from './form-field.entity';
import { type FormView, toFormView } from './form.view';

/** The module's tables, registered for its module (TypeORM loads the entities modules name). */
export const FormTables = TypeOrmModule.forFeature([
  Form,
  FormField,
  AppointmentTypeForm,
  AppointmentType,
]);

/** Forms (the catalog's `Form`) and their fields. */
@Injectable()
export class FormRepository extends RepositoryOf(Form) {
  /** The forms as `/forms` shows them: with their live fields and the live types that ask them. */
  async views(accountId: number, forms: readonly Form[], tx?: EntityManager): Promise<FormView[]> {
    const manager = tx ?? this.dataSource.manager;
    const ids = forms.map((form) => form.id);
    const fields = groupBy(await this.liveFields(ids, tx), (field) => field.formId);
    const links = groupBy(
      await liveTypeLinks(manager, AppointmentTypeForm, 'formId', accountId, ids),
      (link) => link.formId,
    );
    return forms.map((form) =>
      toFormView(
        form,
        fields.get(form.id) ?? [],
        (links.get(form.id) ?? []).map((link) => link.appointmentTypeId),
      ),
    );
  }

  /** The live fields of `formIds`, by form, then position. */
  liveFields(formIds: readonly number[], tx?: EntityManager): Promise<FormField[]> {
    if (formIds.length === 0) return Promise.resolve([]);
    return (tx ?? this.dataSource.manager).find(FormField, {
      where: { formId: In(formIds), deletedAt: IsNull() },
      order: { formId: 'ASC', position: 'ASC', id: 'ASC' },
    });
  }

  async saveFields(fields: FormField[], tx: EntityManager): Promise<void> {
    await tx.save(fields);
  }

  /** Soft delete: answers already given keep their question. */
  async deleteFields(ids: number[], tx: EntityManager): Promise<void> {
    if (ids.length > 0) await tx.update(FormField, { id: In(ids) }, { deletedAt: new Date() });
  }

  /**
   * What an appointment of the type may answer: the live fields of its live forms, the forms in the
   * order the type lists them (then by id), each form's fields in position order.
   */
  async fieldDefinitionsFor(
    accountId: number,
    appointmentTypeId: number,
  ): Promise<FieldDefinition[]> {
    const forms = await this.dataSource.manager
      .createQueryBuilder(Form, 'form')
      .innerJoin(
        AppointmentTypeForm,
        'link',
        'link.formId = form.id AND link.appointmentTypeId = :appointmentTypeId',
        { appointmentTypeId },
      )
      .where('form.accountId = :accountId AND form.deletedAt IS NULL', { accountId })
      .orderBy('link.position', 'ASC')
      .addOrderBy('form.id', 'ASC')
      .getMany();
    const fields = groupBy(
      await this.liveFields(forms.map((form) => form.id)),
      (field) => field.formId,
    );
    return forms.flatMap((form) =>
      (fields.get(form.id) ?? []).map((field) => ({
        id: field.id,
        formId: form.id,
        type: field.type,
        required: field.required,
        options: field.options,
        formHidden: form.hidden,
      })),
    );
  }
}
