import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { Batcher, retryAlone } from '../../common/database/batcher';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import type { RecordedEvent } from '../../common/outbox/domain-event';
import type { DomainEventConsumer } from '../../common/outbox/domain-event-consumer';
import type { AppointmentEventType } from '../../common/outbox/domain-event-types';
import type { NotificationKind } from './notification.entity';
import {
  type AppointmentFacts,
  type NewNotification,
  NotificationRepository,
} from './notification.repository';
import { NotificationQueue } from './notification-queue';
import {
  KIND_OF_EVENT,
  decideChannels,
  eventKey,
  reminderDueAt,
  reminderKey,
} from './notification-rules';

/** An appointment event to plan messages for. */
interface PlanItem {
  outboxId: string;
  accountId: number;
  appointmentId: number;
  /** The message the event is (confirmation, notice of a move or a cancellation); none for `changed`. */
  kind: NotificationKind | undefined;
  noEmail: boolean;
}

/** What a batch planned: the jobs to add and to remove once it is committed. */
interface Planned {
  now: string[];
  reminders: { id: string; dueAt: Date }[];
  stale: string[];
}

/**
 * Worker: turns appointment events into client messages (a consumer, see
 * src/app/domain-event-consumers.ts).
 *
 * - `scheduled`, `rescheduled`, `canceled`: a row per channel with a recipient, `pending` with a
 *   job to send it or `skipped` with the reason; `changed` alone sends nothing. A series'
 *   occurrences are confirmed by one message, the first occurrence's (the others' are skipped).
 * - Every event then brings the appointment's reminder in line with the appointment as it is now:
 *   a pending reminder of another start, or of a canceled appointment, is deleted with its job; the
 *   current start's is planned (a job delayed until `reminderHours` before it) unless that time has
 *   passed. `noEmail` concerns the request's own message, not the reminder.
 *
 * Idempotent: rows are unique per (event, channel) and (appointment, start, channel), jobs per row;
 * running again queues only what is still pending (Redis may have lost its job). Reading the
 * appointment, not the event, makes events handled out of order converge on the last state.
 *
 * Events handled together are planned in one transaction of a few statements (Batcher); a batch
 * that fails is planned again one event at a time, so that an event that fails fails only its job.
 */
@Injectable()
export class NotificationPlanner implements DomainEventConsumer<AppointmentEventType> {
  private readonly batches = new Batcher<PlanItem, void>(
    retryAlone((items) => this.plan(items)),
    { maxBatch: 200, maxInFlight: 2 },
  );

  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly records: NotificationRepository,
    private readonly queue: NotificationQueue,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async handle(event: RecordedEvent<AppointmentEventType>): Promise<void> {
    if (event.accountId === null) return;
    await this.batches.add({
      outboxId: event.outboxId,
      accountId: event.accountId,
      appointmentId: event.payload.appointmentId,
      kind: KIND_OF_EVENT[event.type],
      noEmail: event.payload.noEmail === true,
    });
  }

  /**
   * Under the appointments' row locks (lockAppointments), one transaction writes the events'
   * messages and current reminders, reads back what is pending and deletes stale reminders. After
   * the commit, jobs are added (Bull ignores those it has) and stale ones removed (hygiene).
   */
  private async plan(items: PlanItem[]): Promise<void> {
    const now = Date.now();
    const appointmentIds = [...new Set(items.map((i) => i.appointmentId))].sort((a, b) => a - b);
    const planned = await this.unitOfWork.run(null, async (tx): Promise<Planned> => {
      await this.records.lockAppointments(tx, appointmentIds);
      const facts = await this.records.factsOf(appointmentIds, tx);
      const messages: NewNotification[] = [];
      const mine = new Map<number, AppointmentFacts>();
      for (const item of items) {
        const appointment = facts.get(item.appointmentId);
        if (appointment?.accountId !== item.accountId) {
          this.logger.warn(
            { outboxId: item.outboxId, appointmentId: item.appointmentId },
            'no appointment to notify of',
          );
          continue;
        }
        mine.set(appointment.id, appointment);
        if (item.kind !== undefined)
          messages.push(...eventMessages(item, item.kind, appointment, new Date(now)));
      }
      for (const appointment of mine.values()) messages.push(...reminders(appointment, now));
      await this.records.insertMessages(messages, tx, new Date(now));

      const events = new Set(items.map((i) => i.outboxId));
      const planned: Planned = { now: [], reminders: [], stale: [] };
      for (const p of await this.records.pendingOf(appointmentIds, tx)) {
        if (p.kind !== 'reminder') {
          if (p.outboxId !== null && events.has(p.outboxId)) planned.now.push(p.id);
          continue;
        }
        // Not tied to the due time: a reminder of the current start retried past its time stays.
        const appointment = mine.get(p.appointmentId);
        if (!appointment) continue;
        if (appointment.canceled || p.reminderFor?.getTime() !== appointment.startsAt.getTime())
          planned.stale.push(p.id);
        else if (reminderDueAt(appointment, appointment.reminderHours, now) !== null)
          planned.reminders.push({ id: p.id, dueAt: p.dueAt });
      }
      await this.records.deleteReminders(planned.stale, tx, new Date(now));
      return planned;
    });
    await this.queue.add(planned.now.map((id) => ({ id })));
    await this.queue.remove(planned.stale);
    await this.queue.add(planned.reminders, now);
  }
}

/** Why an occurrence's own confirmation is not sent: the series' confirmation lists it. */
const SERIES_LISTED = "listed in the series' confirmation";

/** The message of an appointment event on each channel with a recipient: pending, or skipped. */
function eventMessages(
  item: PlanItem,
  kind: NotificationKind,
  appointment: AppointmentFacts,
  now: Date,
): NewNotification[] {
  // A series' confirmation is one message, the first occurrence's, listing every occurrence.
  const inSeries =
    kind === 'confirmation' &&
    appointment.seriesId !== null &&
    appointment.id !== appointment.seriesFirstId;
  return decideChannels(appointment, appointment, { noEmail: item.noEmail }).map((d) => ({
    accountId: appointment.accountId,
    appointmentId: appointment.id,
    outboxId: item.outboxId,
    reminderFor: null,
    dedupeKey: eventKey(item.outboxId, d.channel),
    channel: d.channel,
    kind,
    recipient: d.recipient,
    status: d.send && !inSeries ? 'pending' : 'skipped',
    error: d.send ? (inSeries ? SERIES_LISTED : null) : d.reason,
    dueAt: now,
  }));
}

/** The current start's reminder on each channel that would send now (the job decides again). */
function reminders(appointment: AppointmentFacts, now: number): NewNotification[] {
  const dueAt = reminderDueAt(appointment, appointment.reminderHours, now);
  if (dueAt === null) return [];
  return decideChannels(appointment, appointment, { noEmail: false })
    .filter((d) => d.send)
    .map((d) => ({
      accountId: appointment.accountId,
      appointmentId: appointment.id,
      outboxId: null,
      reminderFor: appointment.startsAt,
      dedupeKey: reminderKey(appointment.id, appointment.startsAt, d.channel),
      channel: d.channel,
      kind: 'reminder',
      recipient: d.recipient,
      status: 'pending',
      error: null,
      dueAt,
    }));
}
