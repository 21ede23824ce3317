import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { type BeforeApplicationShutdown, Inject } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import type { Logger } from 'pino';
import { appointmentInvite } from '../../common/calendar/appointment-ical';
import { seriesInvite } from '../../common/calendar/series-ical';
import { toSingleLine } from '../../common/http/text-rules';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import { QueueName } from '../../common/queues/queue-names';
import { AppConfig } from '../../config/app-config';
import { confirmationPage, occurrencesOf } from '../appointments';
import { type MailMessage, MailSender } from './mail-sender';
import {
  type MessageFacts,
  type SeriesListing,
  renderEmail,
  renderSms,
} from './notification-content';
import { SEND_JOB, type SendJobData } from './notification-queue';
import {
  type AppointmentFacts,
  type ClaimedNotification,
  NotificationRepository,
  type SeriesFacts,
} from './notification.repository';
import { decideAtSendTime } from './notification-rules';
import type { SendOutcome } from './send-outcome';
import { SmsSender } from './sms-sender';

/** Messages in flight per worker: a send mostly waits on the SMTP server or the SMS API. */
export const SEND_CONCURRENCY = 20;

/** What a job that ends normally did, kept as the job's return value. */
export type SendJobResult = 'sent' | 'skipped' | 'dropped' | 'done';

/**
 * Worker: one attempt per run of a job. The job claims its message, reads the appointment as it is
 * now and decides again (decideAtSendTime); else it sends the message and records the outcome:
 * sent; retry (recorded, the job throws so that Bull runs it again after an exponential wait; the
 * last attempt records `failed`); failed (a permanent refusal: recorded, the job discarded).
 * Nothing here touches the booking: a message that cannot be sent only leaves its row `failed`.
 */
@Processor(QueueName.Notifications)
export class NotificationsProcessor implements BeforeApplicationShutdown {
  constructor(
    @InjectQueue(QueueName.Notifications) private readonly queue: Queue<SendJobData>,
    private readonly records: NotificationRepository,
    private readonly mail: MailSender,
    private readonly sms: SmsSender,
    private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /** A graceful stop lets the sends in flight finish and be recorded before the senders close. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }

  @Process({ name: SEND_JOB, concurrency: SEND_CONCURRENCY })
  async send(job: Job<SendJobData>): Promise<SendJobResult> {
    const claim = await this.records.claim(job.data.notificationId);
    if (claim.kind === 'done') return 'done';
    // A dead worker's attempt holds it until its lease ends: try again later.
    if (claim.kind === 'busy') throw new Error('message busy with another attempt');
    const n = claim.notification;

    let facts: AppointmentFacts | null;
    let series: SeriesFacts | null = null;
    try {
      facts = await this.records.facts(n.accountId, n.appointmentId);
      // A series' confirmation lists it; a move of one of its occurrences sends the series' .ics.
      if (facts?.seriesId != null && (n.kind === 'confirmation' || n.kind === 'rescheduled'))
        series = await this.records.seriesFacts(facts.seriesId);
    } catch (e) {
      await this.release(n);
      throw e;
    }
    if (facts === null) {
      await this.records.skip(n, 'the appointment no longer exists');
      return 'skipped';
    }
    const verdict = decideAtSendTime(n, facts, Date.now());
    if (verdict.kind === 'drop') {
      await this.records.drop(n);
      this.logger.debug({ notificationId: n.id, reason: verdict.reason }, 'reminder dropped');
      return 'dropped';
    }
    if (verdict.kind === 'skip') {
      await this.records.skip(n, verdict.reason);
      return 'skipped';
    }

    const outcome = await this.deliver(n, facts, series, verdict.recipient);
    const log = {
      notificationId: n.id,
      appointmentId: n.appointmentId,
      channel: n.channel,
      kind: n.kind,
      attempt: n.attempts + 1,
    };
    if (outcome.kind === 'sent') {
      await this.records.recordSent(n, verdict.recipient, outcome.providerMessageId);
      this.logger.debug(log, 'notification sent');
      return 'sent';
    }
    const lastTry = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const final =
      outcome.kind === 'failed' ||
      n.attempts + 1 >= this.config.notifications.retryAttempts ||
      lastTry;
    await this.records.recordFailure(n, verdict.recipient, outcome.error, final);
    if (!final) throw new Error(`${outcome.error}; will retry`);
    this.logger.warn({ ...log, error: outcome.error }, 'notification failed');
    if (!lastTry) await job.discard();
    throw new Error(`failed: ${outcome.error}`);
  }

  private async deliver(
    n: ClaimedNotification,
    facts: AppointmentFacts,
    series: SeriesFacts | null,
    recipient: string,
  ): Promise<SendOutcome> {
    try {
      const message: MessageFacts = {
        ...facts,
        kind: n.kind,
        confirmationPage: confirmationPage(
          this.config.http.publicUrl,
          this.config.secret,
          n.accountId,
          facts.id,
        ),
        series: series ? listing(series) : undefined,
      };
      if (n.channel === 'email') {
        return await this.mail.send({
          to: recipient,
          fromName: facts.accountName,
          replyTo: facts.replyTo,
          ...renderEmail(message),
          calendarEvent: this.calendarEvent(n, facts, series, recipient, message.confirmationPage),
        });
      }
      return await this.sms.send(recipient, renderSms(message));
    } catch (err) {
      // Senders do not throw; a template that did cannot do better on the next attempt.
      return { kind: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  }

  /**
   * The .ics of a confirmation or a reschedule, with the appointment's UID and SEQUENCE (raised by
   * each move) so that the client's calendar updates its one event; none for the other kinds.
   */
  private calendarEvent(
    n: ClaimedNotification,
    facts: AppointmentFacts,
    series: SeriesFacts | null,
    recipient: string,
    page: string,
  ): MailMessage['calendarEvent'] {
    if (n.kind !== 'confirmation' && n.kind !== 'rescheduled') return undefined;
    if (facts.canceled) return undefined;
    const described = {
      summary: toSingleLine(`${facts.typeName} (${facts.accountName})`),
      description: `See, cancel or reschedule it: ${page}`,
      location: toSingleLine(facts.location),
    };
    const people = {
      organizer: {
        name: toSingleLine(facts.accountName),
        email: this.config.notifications.mail.from,
      },
      attendee: { name: toSingleLine(facts.firstName), email: recipient },
    };
    const { publicUrl } = this.config.http;
    const content = series
      ? seriesInvite({ ...series, ...described, ruleStarts: ruleStarts(series) }, publicUrl, people)
      : appointmentInvite({ ...facts, ...described, canceled: false }, publicUrl, people);
    return { method: 'REQUEST', content };
  }

  /** Best effort: when MySQL is what failed, the lease simply runs out. */
  private async release(n: ClaimedNotification): Promise<void> {
    try {
      await this.records.release(n);
    } catch (err) {
      this.logger.warn({ err, notificationId: n.id }, 'notification claim not released');
    }
  }
}

/** The series' occurrences a confirmation lists: those not canceled, by start. */
function listing(series: SeriesFacts): SeriesListing {
  const occurrences = series.occurrences
    .filter((o) => !o.canceled)
    .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
  return { frequency: series.frequency, interval: series.interval, occurrences };
}

/** The series' rule instants, as it was booked (the first start's wall clock in its zone). */
function ruleStarts(series: SeriesFacts): (number | null)[] {
  return occurrencesOf(series.startsAt.getTime(), series.timezone, series).map((o) => o.start);
}
