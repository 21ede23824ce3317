import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EntityManager } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { AppConfig } from '../../config/app-config';
import type { Calendar } from '../catalog';
import type { CalendarFeedView } from './busy-source.view';
import { CalendarFeed, feedTokenContext } from './calendar-feed.entity';
import { CalendarFeedRepository } from './calendar-feed.repository';

/**
 * The secret address of the calendar's iCalendar feed (a random 256-bit token, kept sealed to show
 * again and found by its keyed hash), made on first use; `rotate` makes a new one (the old: 404).
 */
export class IssueCalendarFeedCommand extends Command<CalendarFeedView> {
  constructor(
    readonly accountId: number,
    readonly calendarId: number,
    readonly rotate = false,
  ) {
    super();
  }
}

@CommandHandler(IssueCalendarFeedCommand)
export class IssueCalendarFeedHandler implements ICommandHandler<IssueCalendarFeedCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly feeds: CalendarFeedRepository,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
  ) {}

  async execute({ accountId, calendarId, rotate }: IssueCalendarFeedCommand) {
    const calendar = await this.feeds.calendar(accountId, calendarId);
    const existing = rotate ? null : await this.feeds.ofCalendar(calendar.id);
    if (existing) return this.view(this.opened(existing));
    return this.unitOfWork.run(calendar.accountId, async (tx) => {
      await this.feeds.lockCalendar(tx, calendar.id);
      if (rotate) await this.feeds.deleteOfCalendar(tx, calendar.id);
      const raced = rotate ? null : await this.feeds.ofCalendar(calendar.id, tx);
      return this.view(raced ? this.opened(raced) : await this.issue(tx, calendar));
    });
  }

  private async issue(tx: EntityManager, calendar: Calendar): Promise<string> {
    const token = Secrets.generate(32);
    const feed = Object.assign(new CalendarFeed(), {
      calendarId: calendar.id,
      accountId: calendar.accountId,
      tokenHash: this.secrets.hash(token),
      sealedToken: this.secrets.encrypt(token, feedTokenContext(calendar.id)),
      createdAt: new Date(),
    });
    await this.feeds.insert(tx, feed);
    return token;
  }

  private opened(feed: CalendarFeed): string {
    return this.secrets.decrypt(feed.sealedToken, feedTokenContext(feed.calendarId));
  }

  private view(token: string): CalendarFeedView {
    return { url: `${this.config.http.publicUrl}/api/v1/calendar-feeds/${token}.ics` };
  }
}
