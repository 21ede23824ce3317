import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountItemQuery } from '../../common/cqrs/account-messages';
import { SlotHoldRepository } from './slot-hold.repository';
import { type SlotHoldView, toSlotHoldView } from './slot-hold.view';

/** A live hold of the account; 404 once it has ended. */
export class GetSlotHoldQuery extends AccountItemQuery<SlotHoldView> {}

@QueryHandler(GetSlotHoldQuery)
export class GetSlotHoldHandler implements IQueryHandler<GetSlotHoldQuery> {
  constructor(private readonly holds: SlotHoldRepository) {}

  async execute({ accountId, id }: GetSlotHoldQuery): Promise<SlotHoldView> {
    return toSlotHoldView(await this.holds.live(accountId, id));
  }
}
