import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { ICalCalendarMethod } from 'ical-generator';
import { addAppointmentEvent, newCalendar } from '../../common/calendar/appointment-ical';
import { Secrets } from '../../common/crypto/secrets';
import { NotFoundError } from '../../common/errors/domain-error';
import { DAY } from '../../common/time/durations';
import { AppConfig } from '../../config/app-config';
import { CalendarFeedRepository } from './calendar-feed.repository';

/** A feed shows what ended in the last this many days, and everything ahead. */
const FEED_PAST_DAYS = 30;
/** Events of each kind (appointments, blocks) a feed holds at most, the earliest first. */
const FEED_MAX_EVENTS = 5000;

const TOKEN_FILE = /^([0-9a-f]{64})\.ics$/;

/** The feed of `file` (`<token>.ics`) as iCalendar text, or 404: live appointments and blocks. */
export class RenderCalendarFeedQuery extends Query<string> {
  constructor(
    readonly file: string,
    readonly now = Date.now(),
  ) {
    super();
  }
}

@QueryHandler(RenderCalendarFeedQuery)
export class RenderCalendarFeedHandler implements IQueryHandler<RenderCalendarFeedQuery> {
  constructor(
    private readonly feeds: CalendarFeedRepository,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
  ) {}

  async execute({ file, now }: RenderCalendarFeedQuery): Promise<string> {
    const token = TOKEN_FILE.exec(file)?.[1];
    if (token === undefined) throw new NotFoundError();
    const calendar = await this.feeds.calendarOfToken(this.secrets.hash(token));
    if (!calendar) throw new NotFoundError();
    const since = new Date(now - FEED_PAST_DAYS * DAY);
    const appointments = await this.feeds.appointments(calendar.id, since, FEED_MAX_EVENTS);
    const blocks = await this.feeds.blocks(calendar.id, since, FEED_MAX_EVENTS);
    const publicUrl = this.config.http.publicUrl;
    const ics = newCalendar(calendar.name, ICalCalendarMethod.PUBLISH);
    for (const a of appointments) {
      const client = `${a.first_name} ${a.last_name}`.trim();
      addAppointmentEvent(
        ics,
        {
          id: a.id,
          startsAt: a.starts_at,
          endsAt: a.ends_at,
          sequence: Number(a.sequence),
          canceled: false,
          summary: client === '' ? a.type_name : `${a.type_name}: ${client}`,
          description: [
            client,
            a.email,
            a.phone,
            a.notes ?? '',
            a.resource_names === null ? '' : `Resources: ${a.resource_names}`,
          ]
            .filter((line) => line !== '')
            .join('\n'),
          location: calendar.location,
          updatedAt: a.updated_at,
        },
        publicUrl,
      );
    }
    const host = new URL(publicUrl).hostname;
    for (const b of blocks) {
      ics.createEvent({
        id: `block-${b.id}@${host}`,
        start: b.starts_at,
        end: b.ends_at,
        stamp: new Date(now),
        lastModified: b.created_at,
        summary: 'Blocked',
        description: b.notes === '' ? null : b.notes,
      });
    }
    return ics.toString();
  }
}
