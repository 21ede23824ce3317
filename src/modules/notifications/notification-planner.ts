import { Inject } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logging.module';
import type { RecordedEvent } from '../../common/outbox/domain-event';
import {
  DomainEventConsumer,
  type DomainEventHandler,
} from '../../common/outbox/domain-event-consumer';
import { NotificationRecords } from './notification-records';
import { NotificationQueue } from './notification-queue';
import { KIND_OF_EVENT, decideChannels, reminderDueAt } from './notification-rules';

/**
 * Worker: turns appointment events into client messages.
 *
 * - `scheduled`, `rescheduled`, `canceled`: one row per channel with a recipient (e-mail, SMS),
 *   `pending` with a job to send it, or `skipped` with the reason (`noEmail` on the request, a
 *   setting, no SMS opt-in). `changed` alone sends nothing.
 * - Every appointment event (`changed` included, which follows each change) then brings the
 *   appointment's reminder in line with the appointment as it is now: the pending reminder of
 *   another start time (moved) or of a canceled appointment is deleted and its delayed job removed;
 *   the reminder of the current start is planned (rows and a job delayed until `reminderHours`
 *   before the start) unless that time has passed. `noEmail` concerns the request's own message,
 *   not the appointment's reminder.
 *
 * Idempotent, as a consumer must be: rows are unique per (event, channel) and per (appointment,
 * start, channel), jobs per row; running it again adds nothing and queues again only what is still
 * pending (whose job Redis may have lost). Reading the appointment rather than trusting the event
 * makes events handled out of order converge on the last state; and each job decides again when
 * it runs, so a reminder left behind can never send anything wrong.
 */
@DomainEventConsumer()
export class NotificationPlanner implements DomainEventHandler {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly records: NotificationRecords,
    private readonly queue: NotificationQueue,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  async handle(event: RecordedEvent): Promise<void> {
    if (!event.type.startsWith('appointment.') || event.accountId === null) return;
    const appointmentId = event.payload.appointmentId;
    if (typeof appointmentId !== 'number') return;
    const facts = await this.records.facts(event.accountId, appointmentId);
    if (facts === null) {
      this.logger.warn({ outboxId: event.outboxId, appointmentId }, 'no appointment to notify of');
      return;
    }
    const kind = KIND_OF_EVENT[event.type];
    if (kind !== undefined) {
      const pending = await this.records.recordEventMessages(
        { outboxId: event.outboxId, accountId: facts.accountId, appointmentId },
        kind,
        decideChannels(facts, facts, { noEmail: event.payload.noEmail === true }),
      );
      await this.queue.add(pending.map((id) => ({ id })));
    }
    await this.planReminder(facts.accountId, appointmentId);
  }

  /**
   * In one transaction under the appointment's row lock (see lockAppointment): read it as it is
   * now, delete the pending reminders of any other start (or all, once canceled), plan the current
   * one. Then, after the commit, the queue: stale jobs removed (hygiene: a stale job finds its row
   * gone), the current reminder's jobs added (delayed; Bull ignores those it has).
   */
  private async planReminder(accountId: number, appointmentId: number): Promise<void> {
    const now = Date.now();
    const planned = await this.dataSource.transaction(async (tx) => {
      if (!(await this.records.lockAppointment(tx, accountId, appointmentId))) return null;
      const facts = await this.records.facts(accountId, appointmentId, tx);
      if (facts === null) return null;
      // Not tied to the due time: a reminder of the current start retried past its time stays.
      const stale = await this.records.staleReminders(
        appointmentId,
        facts.canceled ? null : facts.startsAt,
        tx,
      );
      await this.records.deleteReminders(stale, tx);
      const dueAt = reminderDueAt(facts, facts.reminderHours, now);
      if (dueAt === null) return { stale, pending: [] };
      // Only the channels that would send now; the job decides again when the time comes.
      const channels = decideChannels(facts, facts, { noEmail: false }).filter((d) => d.send);
      return { stale, pending: await this.records.planReminders(facts, dueAt, channels, tx) };
    });
    if (planned === null) return;
    await this.queue.remove(planned.stale);
    await this.queue.add(planned.pending, now);
  }
}
