import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { AccountItemCommand } from '../../common/cqrs/account-messages';
import { Secrets } from '../../common/crypto/secrets';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { checkOutboundTarget } from '../../common/net/outbound-target';
import { checkTargetAddresses } from '../../common/net/target-resolution';
import { AppConfig } from '../../config/app-config';
import { BusySource, passwordContext } from './busy-source.entity';
import { BusySourceRepository } from './busy-source.repository';
import type { CreateBusySourceRequest } from './busy-source.requests';
import { type BusySourceView, toBusySourceView } from './busy-source.view';
import { InvalidSourceUrlError, MAX_SOURCES_PER_CALENDAR } from './calendar-sync.errors';

/** Adds to calendar `id` a source whose busy time blocks it, due at once (read within a scan). */
export class CreateBusySourceCommand extends AccountItemCommand<
  CreateBusySourceRequest,
  BusySourceView
> {}

@CommandHandler(CreateBusySourceCommand)
export class CreateBusySourceHandler implements ICommandHandler<CreateBusySourceCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly sources: BusySourceRepository,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
  ) {}

  async execute({ accountId, id: calendarId, request }: CreateBusySourceCommand) {
    const check = checkOutboundTarget(request.url, this.config.calendarSync);
    if (!check.ok) throw new InvalidSourceUrlError(check.reason);
    // The name resolved too, before the transaction: one pointing inside is refused now, not by
    // every sync (which checks again: names change).
    const resolved = await checkTargetAddresses(check.url, this.config.calendarSync);
    if (!resolved.ok) throw new InvalidSourceUrlError(resolved.reason);
    return this.unitOfWork.run(accountId, async (tx) => {
      // The calendar's row locked: two creations at once count each other.
      await this.sources.calendar(accountId, calendarId, tx);
      const count = await this.sources.countOfCalendar(tx, calendarId);
      if (count >= MAX_SOURCES_PER_CALENDAR)
        throw new InvalidAttributeError(
          'too_many_sources',
          `A calendar can have at most ${MAX_SOURCES_PER_CALENDAR} busy sources; delete one to add another.`,
        );
      const now = new Date();
      const source: BusySource = Object.assign(new BusySource(), {
        accountId,
        calendarId,
        type: request.type,
        url: request.url,
        username: request.username ?? '',
        sealedPassword: null,
        state: 'pending',
        lastSyncAt: null,
        lastSuccessAt: null,
        lastError: null,
        eventsRead: 0,
        versionTag: null,
        nextSyncAt: now,
        createdAt: now,
      });
      await this.sources.save(source, tx);
      if (request.password !== undefined && request.password !== '') {
        // Sealed with its own id as context, so the row must exist first.
        source.sealedPassword = this.secrets.encrypt(request.password, passwordContext(source.id));
        await this.sources.sealPassword(tx, source.id, source.sealedPassword);
      }
      return toBusySourceView(source);
    });
  }
}

/** Removes the source and the busy time it brought, in one transaction. */
export class DeleteBusySourceCommand extends Command<void> {
  constructor(
    readonly accountId: number,
    readonly calendarId: number,
    readonly id: number,
  ) {
    super();
  }
}

@CommandHandler(DeleteBusySourceCommand)
export class DeleteBusySourceHandler extends WriteHandler(BusySourceRepository) {
  async execute({ accountId, calendarId, id }: DeleteBusySourceCommand): Promise<void> {
    const source = await this.rows.inCalendar(accountId, calendarId, id);
    await this.unitOfWork.run(accountId, (tx) => this.rows.remove(tx, source.id));
  }
}
