import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Db, LeasedRows, NOT_LEASED_AT } from '../../common/database/leased-rows';
import { findOwned } from '../../common/database/tenant-rows';
import { DEFAULT_LANGUAGE, type Language, isLanguage } from '../../common/i18n/languages';
import { AppointmentSeries } from '../appointments';
import { Appointment } from '../availability';
import { Notification, type NotificationStatus } from './notification.entity';
import { type SendTimeFacts, clip } from './notification-rules';
import { lockRowsWhere } from '../../common/database/row-locks';

/**
 * How long a claim owns a message: longer than a send (the SMTP and SMS timeouts) and its record; a
 * worker that dies mid-send leaves the message to the job's next try after this.
 */
export const LEASE_MS = 2 * 60_000;

/** The appointment with everything a message about it needs, read in one query. */
export interface AppointmentFacts extends SendTimeFacts {
  id: number;
  accountId: number;
  firstName: string;
  endsAt: Date;
  /** The iCalendar SEQUENCE of its event (the e-mail's .ics). */
  sequence: number;
  updatedAt: Date;
  timezone: string;
  /** What its messages are written in: the appointment's language, else the account's. */
  language: Language;
  typeName: string;
  calendarName: string;
  location: string;
  /** Where replies go: the calendar's reply-to, else its e-mail, else the account's. */
  replyTo: string;
  accountName: string;
  /** The series it is an occurrence of (null: none), and that series' first occurrence's id. */
  seriesId: number | null;
  seriesFirstId: number | null;
}

/** A series' rule and its occurrences by id (the order they were booked in: the rule's order). */
export interface SeriesFacts {
  id: number;
  frequency: AppointmentSeries['frequency'];
  interval: number;
  count: number;
  startsAt: Date;
  timezone: string;
  occurrences: Pick<
    AppointmentFacts,
    'id' | 'startsAt' | 'endsAt' | 'canceled' | 'sequence' | 'updatedAt'
  >[];
}

/** A message claimed for one attempt (its `attempts` made before this one). */
export type ClaimedNotification = Pick<
  Notification,
  'id' | 'accountId' | 'appointmentId' | 'channel' | 'kind' | 'reminderFor' | 'attempts'
> & {
  /** The claim's token: the lease's end, exactly as written. */
  lease: Date;
};

export type Claim =
  | { kind: 'claimed'; notification: ClaimedNotification }
  /** Another attempt holds it (a job of a worker that died, until its lease ends). */
  | { kind: 'busy' }
  /** Sent, failed, skipped or deleted: nothing to do. */
  | { kind: 'done' };

/** A message to write: an event's on one channel, or the reminder of one start on one channel. */
export type NewNotification = Pick<
  Notification,
  | 'accountId'
  | 'appointmentId'
  | 'outboxId'
  | 'reminderFor'
  | 'dedupeKey'
  | 'channel'
  | 'kind'
  | 'recipient'
  | 'error'
  | 'dueAt'
> & { status: 'pending' | 'skipped' };

/** A message not sent yet. */
export type PendingNotification = Pick<
  Notification,
  'id' | 'appointmentId' | 'outboxId' | 'kind' | 'reminderFor' | 'dueAt'
>;

/** The facts as read: MySQL's booleans are 0 or 1; replies go to the first address given. */
type FactsRow = Omit<AppointmentFacts, 'replyTo'> & {
  replyTo: string;
  calendarEmail: string;
  accountEmail: string;
};

function factsOfRow({ calendarEmail, accountEmail, ...row }: FactsRow): AppointmentFacts {
  return {
    ...row,
    smsOptIn: Boolean(row.smsOptIn),
    requireSmsOptIn: Boolean(row.requireSmsOptIn),
    canceled: Boolean(row.canceled),
    sequence: Number(row.sequence),
    replyTo: row.replyTo || calendarEmail || accountEmail,
    // A language no longer offered (its catalogue removed) falls back to the default.
    language: isLanguage(row.language) ? row.language : DEFAULT_LANGUAGE,
    sendConfirmationEmail: Boolean(row.sendConfirmationEmail),
    sendSms: Boolean(row.sendSms),
  };
}

/** The tables the module reads and writes, registered with the data source (autoLoadEntities). */
export const notificationTables = TypeOrmModule.forFeature([
  Appointment,
  AppointmentSeries,
  Notification,
]);

/** At most this many messages are listed (an appointment has a handful). */
const MAX_LISTED = 500;

/**
 * The notifications table, in SQL written by hand (a few statements per message, each one round
 * trip). Times are the worker's clock, never NOW() (see data-source-options.ts).
 */
@Injectable()
export class NotificationRepository {
  private readonly leases = new LeasedRows({
    table: 'notifications',
    claimable: "status = 'pending'",
    leaseMs: LEASE_MS,
  });

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The messages of the account's appointment, oldest first; 403 for another's, 404 for none. */
  async ofAppointment(accountId: number, appointmentId: number): Promise<Notification[]> {
    const appointment = await findOwned(
      this.dataSource.getRepository(Appointment),
      accountId,
      appointmentId,
    );
    return this.dataSource.manager.find(Notification, {
      where: { appointmentId: appointment.id, accountId },
      order: { id: 'ASC' },
      take: MAX_LISTED,
    });
  }

  /** The appointment of the account with its type, calendar and the account's settings; null if none. */
  async facts(accountId: number, appointmentId: number): Promise<AppointmentFacts | null> {
    const facts = (await this.factsOf([appointmentId])).get(appointmentId);
    return facts?.accountId === accountId ? facts : null;
  }

  /** The facts of several appointments (of any account: callers check), by id, in one query. */
  async factsOf(
    appointmentIds: number[],
    db: Db = this.dataSource.manager,
  ): Promise<Map<number, AppointmentFacts>> {
    const rows: FactsRow[] = await db.query(
      `SELECT a.id, a.account_id AS accountId, a.first_name AS firstName, a.email, a.phone,
              a.sms_opt_in AS smsOptIn, a.canceled, a.starts_at AS startsAt, a.ends_at AS endsAt,
              a.sequence, a.updated_at AS updatedAt, a.timezone,
              COALESCE(a.language, acc.language) AS language,
              t.name AS typeName, t.require_sms_opt_in AS requireSmsOptIn,
              c.name AS calendarName, c.location, c.email AS calendarEmail, c.reply_to AS replyTo,
              acc.name AS accountName, acc.email AS accountEmail,
              acc.send_confirmation_email AS sendConfirmationEmail, acc.send_sms AS sendSms,
              acc.reminder_hours AS reminderHours, a.series_id AS seriesId,
              IF(a.series_id IS NULL, NULL,
                 (SELECT MIN(o.id) FROM appointments o WHERE o.series_id = a.series_id)) AS seriesFirstId
         FROM appointments a
         JOIN appointment_types t ON t.id = a.appointment_type_id
         JOIN calendars c ON c.id = a.calendar_id
         JOIN accounts acc ON acc.id = a.account_id
        WHERE a.id IN (?)`,
      [appointmentIds],
    );
    return new Map(rows.map((row) => [row.id, factsOfRow(row)]));
  }

  /** The series' rule and occurrences (of any account: callers check), read when its e-mail is sent. */
  async seriesFacts(seriesId: number): Promise<SeriesFacts | null> {
    const series = await this.dataSource.manager.findOne(AppointmentSeries, {
      where: { id: seriesId },
    });
    if (series === null) return null;
    const rows: SeriesFacts['occurrences'] = await this.dataSource.manager.find(Appointment, {
      select: {
        id: true,
        startsAt: true,
        endsAt: true,
        canceled: true,
        sequence: true,
        updatedAt: true,
      },
      where: { seriesId },
      order: { id: 'ASC' },
    });
    return { ...series, occurrences: rows };
  }

  /**
   * Locks the appointments' rows (lockRowsWhere) in ascending id order (as every planner does: no cycle), so that
   * two planners of one appointment plan its reminder one after the other, neither undoing the
   * other's. No cycle with bookings either: they lock calendars first, their one appointment last.
   */
  async lockAppointments(tx: Db, appointmentIds: number[]): Promise<void> {
    await lockRowsWhere(tx, 'appointments', 'id IN (?)', [appointmentIds]);
  }

  /** Writes messages with one INSERT; the unique `dedupe_key` makes a second write do nothing. */
  async insertMessages(messages: NewNotification[], db: Db, now: Date): Promise<void> {
    if (messages.length === 0) return;
    await db.query(
      `INSERT IGNORE INTO notifications
         (account_id, appointment_id, outbox_id, reminder_for, dedupe_key, channel, kind,
          recipient, status, attempts, error, due_at, created_at, updated_at)
       VALUES ${messages.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)').join(', ')}`,
      messages.flatMap((m) => [
        m.accountId,
        m.appointmentId,
        m.outboxId,
        m.reminderFor,
        m.dedupeKey,
        m.channel,
        m.kind,
        clip(m.recipient, 254),
        m.status,
        m.error,
        m.dueAt,
        now,
        now,
      ]),
    );
  }

  /** The pending messages of the appointments (read by `idx_notifications_appointment`). */
  async pendingOf(appointmentIds: number[], db: Db): Promise<PendingNotification[]> {
    const rows: (PendingNotification & {
      id: number | string;
      outboxId: number | string | null;
    })[] = await db.query(
      `SELECT id, appointment_id AS appointmentId, outbox_id AS outboxId, kind,
                reminder_for AS reminderFor, due_at AS dueAt
           FROM notifications
          WHERE appointment_id IN (?) AND status = 'pending' ORDER BY id`,
      [appointmentIds],
    );
    return rows.map((row) => ({
      ...row,
      id: String(row.id),
      outboxId: row.outboxId === null ? null : String(row.outboxId),
    }));
  }

  /** Deletes stale reminders; one whose attempt is in flight is left to its job, which drops it. */
  async deleteReminders(ids: string[], db: Db, now: Date): Promise<void> {
    if (ids.length === 0) return;
    await db.query(
      `DELETE FROM notifications
        WHERE id IN (?) AND kind = 'reminder' AND status = 'pending' AND ${NOT_LEASED_AT}`,
      [ids, now],
    );
  }

  /**
   * Claims a pending message for one attempt unless one is in flight: one UPDATE decides, so that
   * two runs of a job (Bull re-running a stalled one while the first sends) never send at once.
   */
  async claim(id: string, now = new Date()): Promise<Claim> {
    const lease = await this.leases.claimOne(this.dataSource, id, now);
    const [row]: (Omit<ClaimedNotification, 'id' | 'lease'> & {
      status: NotificationStatus;
      leasedUntil: Date | null;
    })[] = await this.dataSource.query(
      `SELECT account_id AS accountId, appointment_id AS appointmentId, channel, kind, status,
              reminder_for AS reminderFor, attempts, leased_until AS leasedUntil
         FROM notifications WHERE id = ?`,
      [id],
    );
    if (!row) return { kind: 'done' };
    const { status, leasedUntil, ...claimed } = row;
    if (status !== 'pending') return { kind: 'done' };
    if (lease === null || leasedUntil?.getTime() !== lease.getTime()) return { kind: 'busy' };
    return { kind: 'claimed', notification: { id, lease, ...claimed } };
  }

  /** Gives a claim back without an attempt (the job failed before sending). */
  async release(n: ClaimedNotification): Promise<void> {
    await this.leases.release(this.dataSource, n);
  }

  /** Deletes a reminder that lost its purpose (see decideAtSendTime). */
  async drop(n: ClaimedNotification): Promise<void> {
    await this.leases.deleteHeld(this.dataSource, n);
  }

  async skip(n: ClaimedNotification, reason: string): Promise<void> {
    await this.leases.finish(this.dataSource, n, new Date(), "status = 'skipped', error = ?", [
      clip(reason),
    ]);
  }

  async recordSent(
    n: ClaimedNotification,
    recipient: string,
    providerMessageId: string | null,
    at = new Date(),
  ): Promise<void> {
    await this.leases.finish(
      this.dataSource,
      n,
      at,
      `status = 'sent', recipient = ?, attempts = attempts + 1, error = NULL,
       provider_message_id = ?, sent_at = ?`,
      [clip(recipient, 254), providerMessageId === null ? null : clip(providerMessageId), at],
    );
  }

  /** A failed attempt: the message stays pending for the next one, or is `failed` when `final`. */
  async recordFailure(
    n: ClaimedNotification,
    recipient: string,
    error: string,
    final: boolean,
    at = new Date(),
  ): Promise<void> {
    await this.leases.finish(
      this.dataSource,
      n,
      at,
      'status = ?, recipient = ?, attempts = attempts + 1, error = ?',
      [final ? 'failed' : 'pending', clip(recipient, 254), clip(error)],
    );
  }
}
