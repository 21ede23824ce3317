import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { LeasedRows, NOT_LEASED_AT } from '../../common/database/leased-rows';
import { findOwned } from '../../common/database/tenant-rows';
import { Appointment } from '../availability';
import {
  type Channel,
  Notification,
  type NotificationKind,
  type NotificationStatus,
} from './notification.entity';
import { type SendTimeFacts, clip } from './notification-rules';

/**
 * How long a claim owns a message: longer than one send can take (nodemailer's connection, greeting
 * and socket timeouts, the SMS request's 10 s) and its recording. A worker that dies mid-send leaves
 * the message to the job's next try after this.
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
  typeName: string;
  calendarName: string;
  location: string;
  /** Where replies go: the calendar's reply-to, else its e-mail, else the account's. */
  replyTo: string;
  accountName: string;
}

/** A message claimed for one attempt. */
export interface ClaimedNotification {
  id: string;
  /** The claim's token: the lease's end, exactly as written. */
  lease: Date;
  accountId: number;
  appointmentId: number;
  channel: Channel;
  kind: NotificationKind;
  reminderFor: Date | null;
  /** Attempts made before this one. */
  attempts: number;
}

export type Claim =
  | { kind: 'claimed'; notification: ClaimedNotification }
  /** Another attempt holds it (a job of a worker that died, until its lease ends). */
  | { kind: 'busy' }
  /** Sent, failed, skipped or deleted: nothing to do. */
  | { kind: 'done' };

interface FactsRow {
  id: number;
  account_id: number;
  first_name: string;
  email: string;
  phone: string;
  sms_opt_in: number | boolean;
  canceled: number | boolean;
  starts_at: Date;
  ends_at: Date;
  sequence: number;
  updated_at: Date;
  timezone: string;
  type_name: string;
  require_sms_opt_in: number | boolean;
  calendar_name: string;
  location: string;
  calendar_email: string;
  reply_to: string;
  account_name: string;
  account_email: string;
  send_confirmation_email: number | boolean;
  send_sms: number | boolean;
  reminder_hours: number;
}

/** A message to write: an event's on one channel, or the reminder of one start on one channel. */
export interface NewNotification {
  accountId: number;
  appointmentId: number;
  outboxId: string | null;
  reminderFor: Date | null;
  dedupeKey: string;
  channel: Channel;
  kind: NotificationKind;
  recipient: string;
  status: 'pending' | 'skipped';
  /** Why it is skipped. */
  error: string | null;
  dueAt: Date;
}

/** A message not sent yet. */
export interface PendingNotification {
  id: string;
  appointmentId: number;
  outboxId: string | null;
  kind: NotificationKind;
  reminderFor: Date | null;
  dueAt: Date;
}

function factsOfRow(row: FactsRow): AppointmentFacts {
  return {
    id: row.id,
    accountId: row.account_id,
    firstName: row.first_name,
    email: row.email,
    phone: row.phone,
    smsOptIn: Boolean(row.sms_opt_in),
    requireSmsOptIn: Boolean(row.require_sms_opt_in),
    canceled: Boolean(row.canceled),
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    sequence: Number(row.sequence),
    updatedAt: row.updated_at,
    timezone: row.timezone,
    typeName: row.type_name,
    calendarName: row.calendar_name,
    location: row.location,
    replyTo: row.reply_to || row.calendar_email || row.account_email,
    accountName: row.account_name,
    sendConfirmationEmail: Boolean(row.send_confirmation_email),
    sendSms: Boolean(row.send_sms),
    reminderHours: row.reminder_hours,
  };
}

/** Where a statement runs: on the pool, or inside a transaction. */
type Db = Pick<EntityManager, 'query'>;

/** The tables the module reads and writes, registered with the data source (autoLoadEntities). */
export const notificationTables = TypeOrmModule.forFeature([Appointment, Notification]);

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

  /**
   * The messages of an appointment of the account, oldest first. Another account's appointment is
   * 403, an unknown one 404.
   */
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
  async facts(
    accountId: number,
    appointmentId: number,
    db: Db = this.dataSource.manager,
  ): Promise<AppointmentFacts | null> {
    const facts = (await this.factsOf([appointmentId], db)).get(appointmentId);
    return facts?.accountId === accountId ? facts : null;
  }

  /** The facts of several appointments (of any account: callers check), by id, in one query. */
  async factsOf(
    appointmentIds: number[],
    db: Db = this.dataSource.manager,
  ): Promise<Map<number, AppointmentFacts>> {
    const rows: FactsRow[] = await db.query(
      `SELECT a.id, a.account_id, a.first_name, a.email, a.phone, a.sms_opt_in, a.canceled,
              a.starts_at, a.ends_at, a.sequence, a.updated_at, a.timezone,
              t.name AS type_name, t.require_sms_opt_in,
              c.name AS calendar_name, c.location, c.email AS calendar_email, c.reply_to,
              acc.name AS account_name, acc.email AS account_email,
              acc.send_confirmation_email, acc.send_sms, acc.reminder_hours
         FROM appointments a
         JOIN appointment_types t ON t.id = a.appointment_type_id
         JOIN calendars c ON c.id = a.calendar_id
         JOIN accounts acc ON acc.id = a.account_id
        WHERE a.id IN (?)`,
      [appointmentIds],
    );
    return new Map(rows.map((row) => [row.id, factsOfRow(row)]));
  }

  /**
   * Locks the appointments' rows for the rest of the transaction, in ascending id order (as every
   * planner locks them, so two never wait on each other in a cycle): the planners of events of one
   * appointment handled at once then plan its reminder one after the other, the second reading
   * what the first wrote, so neither undoes the other's reminder. Only these rows: a booking or a
   * change locks calendars first and its one appointment last, so no cycle forms with them either.
   */
  async lockAppointments(tx: Db, appointmentIds: number[]): Promise<void> {
    await tx.query('SELECT id FROM appointments WHERE id IN (?) ORDER BY id FOR UPDATE', [
      appointmentIds,
    ]);
  }

  /**
   * Writes messages, event messages and reminders alike, with one INSERT. The unique key
   * (`event:<outboxId>:<channel>`, `reminder:<appointment>:<start>:<channel>`) makes a second
   * write of one message write nothing.
   */
  async insertMessages(messages: NewNotification[], db: Db, now = new Date()): Promise<void> {
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
    const rows: {
      id: number | string;
      appointment_id: number;
      outbox_id: number | string | null;
      kind: NotificationKind;
      reminder_for: Date | null;
      due_at: Date;
    }[] = await db.query(
      `SELECT id, appointment_id, outbox_id, kind, reminder_for, due_at FROM notifications
        WHERE appointment_id IN (?) AND status = 'pending' ORDER BY id`,
      [appointmentIds],
    );
    return rows.map((row) => ({
      id: String(row.id),
      appointmentId: row.appointment_id,
      outboxId: row.outbox_id === null ? null : String(row.outbox_id),
      kind: row.kind,
      reminderFor: row.reminder_for,
      dueAt: row.due_at,
    }));
  }

  /**
   * Deletes reminders that lost their purpose (the appointment moved or was canceled). One whose
   * attempt is in flight is left to its job, which finds the appointment changed and drops it.
   */
  async deleteReminders(
    ids: string[],
    db: Db = this.dataSource.manager,
    now = new Date(),
  ): Promise<void> {
    if (ids.length === 0) return;
    await db.query(
      `DELETE FROM notifications
        WHERE id IN (?) AND kind = 'reminder' AND status = 'pending' AND ${NOT_LEASED_AT}`,
      [ids, now],
    );
  }

  /**
   * Claims a message for one attempt: it must be pending and not leased by an attempt in flight.
   * One UPDATE decides, so two runs of a job (Bull re-running a stalled one while the first still
   * sends) never send at once.
   */
  async claim(id: string, now = new Date()): Promise<Claim> {
    const lease = await this.leases.claimOne(this.dataSource, id, now);
    const rows: {
      account_id: number;
      appointment_id: number;
      channel: Channel;
      kind: NotificationKind;
      status: NotificationStatus;
      reminder_for: Date | null;
      attempts: number;
      leased_until: Date | null;
    }[] = await this.dataSource.query(
      `SELECT account_id, appointment_id, channel, kind, status, reminder_for, attempts, leased_until
         FROM notifications WHERE id = ?`,
      [id],
    );
    const row = rows[0];
    if (!row || row.status !== 'pending') return { kind: 'done' };
    if (lease === null || row.leased_until?.getTime() !== lease.getTime()) return { kind: 'busy' };
    return {
      kind: 'claimed',
      notification: {
        id,
        lease,
        accountId: row.account_id,
        appointmentId: row.appointment_id,
        channel: row.channel,
        kind: row.kind,
        reminderFor: row.reminder_for,
        attempts: row.attempts,
      },
    };
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
