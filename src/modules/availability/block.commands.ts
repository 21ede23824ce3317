import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { parseDatetime } from '../../common/time/datetimes';
import { InvalidBlockDatetimeError, InvalidBlockTimeError } from './availability.errors';
import { Block } from './block.entity';
import { BlockRepository } from './block.repository';
import type { CreateBlockRequest } from './block.requests';
import { type BlockView, toBlockView } from './block.view';

export class CreateBlockCommand extends Command<BlockView> {
  constructor(
    readonly accountId: number,
    readonly request: CreateBlockRequest,
  ) {
    super();
  }
}

@CommandHandler(CreateBlockCommand)
export class CreateBlockHandler implements ICommandHandler<CreateBlockCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly blocks: BlockRepository,
  ) {}

  async execute({ accountId, request }: CreateBlockCommand): Promise<BlockView> {
    const [calendar] = await this.blocks.namedCalendars(accountId, [request.calendarID]);
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
      toBlockView(await this.blocks.insert(tx, block), calendar),
    );
  }
}

export class DeleteBlockCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteBlockCommand)
export class DeleteBlockHandler implements ICommandHandler<DeleteBlockCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly blocks: BlockRepository,
  ) {}

  execute({ accountId, id }: DeleteBlockCommand): Promise<void> {
    return this.unitOfWork.run(accountId, async (tx) => {
      const block = await this.blocks.find(accountId, id, { tx });
      await this.blocks.delete(tx, block.id);
    });
  }
}

/**
 * `value` as a moment, read in `zone` unless it carries an offset; of the years parseDatetime takes
 * (1900–2999), so that a far-off typo is refused rather than stored.
 */
function readDatetime(attribute: 'start' | 'end', value: string, zone: string): Date {
  const parsed = parseDatetime(value, zone);
  if (parsed.kind !== 'moment') throw new InvalidBlockDatetimeError(attribute, value);
  return parsed.moment.toJSDate();
}
