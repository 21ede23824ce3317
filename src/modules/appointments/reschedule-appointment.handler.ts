import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { findOwned } from '../../common/database/tenant-rows';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { DomainEventPublisher } from '../../common/outbox/domain-event-publisher';
import { Outbox, type PendingEvents } from '../../common/outbox/outbox';
import { parseDatetime } from '../../common/time/datetimes';
import { MINUTE } from '../../common/time/durations';
import type { Account } from '../accounts/account.entity';
import { assertTimezone } from '../accounts/account-rules';
import { busyWindow, readBusyTime, readSeatsTaken } from '../availability/busy-time';
import { type SlotContext, resolveSlotContext } from '../availability/slot-context';
import { advanceWindow, checkSession, checkStart } from '../availability/slot-engine';
import { ClassSession } from '../catalog/class-session.entity';
import {
  AlreadyCanceledError,
  ClientChangeClosedError,
  eventPayload,
  lockCalendars,
  retryLockConflicts,
  type ChangeMode,
} from './appointment-changes';
import { toId } from '../../common/http/id-list';
import { shown } from '../../common/errors/domain-error';
import { NotAvailableError } from '../availability';
import { AppointmentChangedEvent, AppointmentRescheduledEvent } from './appointment-events';
import { Appointment } from './appointment.entity';
import type { AppointmentView } from './appointment.view';
import { AppointmentViews } from './appointment-views';
import { RescheduleAppointmentCommand } from './reschedule-appointment.command';

/** What the checks before the transaction settled. */
interface Checked {
  /** The type and the one calendar it moves to; `rules.duration` is the appointment's own. */
  ctx: SlotContext;
  start: number;
  datetimeText: string;
  timezone: string | undefined;
}

/**
 * Moves an appointment as booking places one: the datetime, calendar and zone are checked with
 * booking's codes; then one READ COMMITTED transaction locks the old and the new calendar (ascending
 * id) and the row, checks the new time with the slot engine on what is committed, ignoring the
 * appointment itself (unless admin), moves it (same length, addons included; busy span with the
 * type's padding) and records `rescheduled` and `changed`.
 */
@CommandHandler(RescheduleAppointmentCommand)
export class RescheduleAppointmentHandler implements ICommandHandler<RescheduleAppointmentCommand> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly events: DomainEventPublisher,
    private readonly views: AppointmentViews,
  ) {}

  async execute({
    account,
    appointmentId,
    request,
    mode,
  }: RescheduleAppointmentCommand): Promise<AppointmentView> {
    // The account's settings are the principal's, as for booking (see BookAppointmentHandler).
    const current = await findOwned(
      this.dataSource.getRepository(Appointment),
      account.id,
      appointmentId,
    );
    if (current.canceled) throw new AlreadyCanceledError(current.id);
    const checked = await this.check(account, current, request, mode.admin);
    const { appointment, pending } = await retryLockConflicts(() =>
      this.dataSource.transaction((tx) => this.move(tx, account, current, checked, mode)),
    );
    this.events.publishAfterCommit(pending);
    const [view] = await this.views.render([appointment]);
    return view;
  }

  /** Everything that needs no lock, in booking's order of errors. */
  private async check(
    account: Account,
    current: Appointment,
    r: RescheduleAppointmentCommand['request'],
    admin: boolean,
  ): Promise<Checked> {
    if (r.datetime === undefined || r.datetime === null || r.datetime === '')
      throw new InvalidAttributeError('required_datetime', 'The parameter "datetime" is required.');
    let calendarId = current.calendarId;
    if (r.calendarID !== undefined && r.calendarID !== null && r.calendarID !== '') {
      const given = toId(r.calendarID);
      if (given === undefined)
        throw new InvalidAttributeError(
          'invalid_calendar',
          `The calendar "${shown(r.calendarID)}" does not exist.`,
        );
      calendarId = given;
    }
    const ctx = await resolveSlotContext(this.dataSource.manager, account, {
      appointmentTypeID: current.appointmentTypeId,
      calendarID: calendarId,
    });
    const timezone = r.timezone === undefined ? undefined : assertTimezone(r.timezone);
    const datetimeText = shown(r.datetime);
    const parsed =
      typeof r.datetime === 'string'
        ? parseDatetime(r.datetime, ctx.calendars[0].timezone)
        : ({ kind: 'invalid' } as const);
    if (parsed.kind === 'invalid' || (admin && parsed.kind === 'nonexistent'))
      throw new InvalidAttributeError(
        'invalid_datetime',
        `The datetime "${datetimeText}" is invalid.`,
      );
    // A local time that a DST change skips never happens: no calendar can take it.
    if (parsed.kind === 'nonexistent') throw new NotAvailableError('not_available', datetimeText);
    // The length it was booked with (its addons' included), whatever the catalog says now.
    const duration = Math.round((current.endsAt.getTime() - current.startsAt.getTime()) / MINUTE);
    return {
      ctx: { ...ctx, rules: { ...ctx.rules, duration } },
      start: parsed.moment.toMillis(),
      datetimeText,
      timezone,
    };
  }

  private async move(
    tx: EntityManager,
    account: Account,
    current: Appointment,
    { ctx, start, datetimeText, timezone }: Checked,
    mode: ChangeMode,
  ): Promise<{ appointment: Appointment; pending: PendingEvents }> {
    const calendar = ctx.calendars[0];
    await lockCalendars(tx, [current.calendarId, calendar.id]);
    const appointment = await findOwned(tx.getRepository(Appointment), account.id, current.id, {
      forUpdate: true,
    });
    if (appointment.canceled) throw new AlreadyCanceledError(appointment.id);

    const { rules, type } = ctx;
    const now = Date.now();
    let classId: number | null = null;
    if (!mode.admin) {
      if (appointment.startsAt.getTime() <= now)
        throw new ClientChangeClosedError('reschedule', appointment.id);
      const { earliest, latest } = advanceWindow(rules, now);
      if (start < earliest)
        throw new NotAvailableError('not_available_min_hours_in_advance', datetimeText);
      if (start > latest)
        throw new NotAvailableError('not_available_max_days_in_advance', datetimeText);
      if (!type.active) throw new NotAvailableError('not_available', datetimeText);
      if (type.kind === 'class') {
        const session = await this.session(tx, ctx, start);
        const taken = session
          ? ((await readSeatsTaken(tx, [session.id], [appointment.id])).get(session.id) ?? 0)
          : 0;
        const seats = type.classSize ?? 0;
        if (!session || checkSession({ start, seats, taken }, rules, now) !== null)
          throw new NotAvailableError('not_available', datetimeText);
        classId = session.id;
      } else {
        const busy = await readBusyTime(tx, [calendar.id], busyWindow(rules, start), [
          appointment.id,
        ]);
        const schedule = {
          zone: calendar.timezone,
          hours: calendar.hours,
          overrides: calendar.overrides,
          busy: busy.get(calendar.id) ?? [],
        };
        const reason = checkStart(schedule, rules, start, now);
        if (reason !== null) throw new NotAvailableError(reason, datetimeText);
      }
    } else if (type.kind === 'class') {
      classId = (await this.session(tx, ctx, start))?.id ?? null;
    }

    const end = start + rules.duration * MINUTE;
    appointment.calendarId = calendar.id;
    appointment.classId = classId;
    appointment.startsAt = new Date(start);
    appointment.endsAt = new Date(end);
    appointment.busyFrom = new Date(start - rules.paddingBefore * MINUTE);
    appointment.busyUntil = new Date(end + rules.paddingAfter * MINUTE);
    if (timezone !== undefined) appointment.timezone = timezone;
    appointment.updatedAt = new Date(now);
    await tx.save(appointment);
    const payload = eventPayload(appointment, mode.noEmail);
    const pending = await this.outbox.record(tx, [
      new AppointmentRescheduledEvent(account.id, payload),
      new AppointmentChangedEvent(account.id, payload),
    ]);
    return { appointment, pending };
  }

  /** The class session of the type on the calendar at `start`, if there is one. */
  private session(tx: EntityManager, ctx: SlotContext, start: number) {
    return tx.findOneBy(ClassSession, {
      appointmentTypeId: ctx.type.id,
      calendarId: ctx.calendars[0].id,
      startsAt: new Date(start),
    });
  }
}
