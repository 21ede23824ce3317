import { QueryHandler } from '@nestjs/cqrs';
import {
  AccountItemQuery,
  AccountQuery,
  GetHandler,
  ListHandler,
} from '../../common/cqrs/account-messages';
import type { Form } from '../catalog';
import { FormRepository } from './form.repository';
import type { FormView } from './form.view';

const views = (forms: Form[], rows: FormRepository, accountId: number) =>
  rows.views(accountId, forms);

export class ListFormsQuery extends AccountQuery<FormView[]> {}

@QueryHandler(ListFormsQuery)
export class ListFormsHandler extends ListHandler(FormRepository, views) {}

export class GetFormQuery extends AccountItemQuery<FormView> {}

@QueryHandler(GetFormQuery)
export class GetFormHandler extends GetHandler(FormRepository, views) {}
