import { QueryHandler } from '@nestjs/cqrs';
import {
  AccountItemQuery,
  AccountQuery,
  each,
  GetHandler,
  ListHandler,
} from '../../common/cqrs/account-messages';
import { LabelRepository } from './label.repository';
import { type LabelView, toLabelView } from './label.view';

export class ListLabelsQuery extends AccountQuery<LabelView[]> {}

@QueryHandler(ListLabelsQuery)
export class ListLabelsHandler extends ListHandler(LabelRepository, each(toLabelView)) {}

export class GetLabelQuery extends AccountItemQuery<LabelView> {}

@QueryHandler(GetLabelQuery)
export class GetLabelHandler extends GetHandler(LabelRepository, each(toLabelView)) {}
