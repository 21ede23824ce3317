import { CommandHandler } from '@nestjs/cqrs';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { AccountCommand, AccountItemAction } from '../../common/cqrs/account-messages';
import { parseDatetime } from '../../common/time/datetimes';
import { InvalidBlockDatetimeError, InvalidBlockTimeError } from './availability.errors';
import { Block } from './block.entity';
import { BlockRepository } from './block.repository';
import type { CreateBlockRequest } from './block.requests';
import { type BlockView, toBlockView } from './block.view';

export class CreateBlockCommand extends AccountCommand<CreateBlockRequest, BlockView> {}

@CommandHandler(CreateBlockCommand)
export class CreateBlockHandler extends WriteHandler(BlockRepository) {
  async execute({ accountId, request }: CreateBlockCommand): Promise<BlockView> {
    const [calendar] = await this.rows.namedCalendars(accountId, [request.calendarID]);
    const startsAt = readDatetime('start', request.start, calendar.timezone);
    const endsAt = readDatetime('end', request.end, calendar.timezone);
    if (endsAt < startsAt) throw new InvalidBlockTimeError(request.start, request.end, 'before');
    if (endsAt.getTime() === startsAt.getTime())
      throw new InvalidBlockTimeError(request.start, request.end, 'the same as');
    const block = Object.assign(new Block(), {
      accountId,
      calendarId: calendar.id,
      startsAt,
      endsAt,
      notes: request.notes ?? '',
      createdAt: new Date(),
    });
    return this.unitOfWork.run(accountId, async (tx) =>
      toBlockView(await this.rows.insert(tx, block), calendar),
    );
  }
}

/** A hard delete: nothing refers to a block. */
export class DeleteBlockCommand extends AccountItemAction {}

@CommandHandler(DeleteBlockCommand)
export class DeleteBlockHandler extends WriteHandler(BlockRepository) {
  execute({ accountId, id }: DeleteBlockCommand): Promise<void> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const block = await this.rows.find(accountId, id, { tx });
      await this.rows.delete(tx, block.id);
    });
  }
}

/** `value` in `zone` unless it has an offset; in 1900–2999, so a far-off typo is refused. */
function readDatetime(attribute: 'start' | 'end', value: string, zone: string): Date {
  const parsed = parseDatetime(value, zone);
  if (parsed.kind !== 'moment') throw new InvalidBlockDatetimeError(attribute, value);
  return parsed.moment.toJSDate();
}
