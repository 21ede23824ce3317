import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectDataSource } from '@nestjs/typeorm';
import { isEmail } from 'class-validator';
import { DataSource, type EntityManager } from 'typeorm';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { toIdList } from '../../common/http/id-list';
import { insertRows } from '../../common/database/insert-rows';
import { Metrics } from '../../common/metrics/metrics';
import { DomainEventPublisher } from '../../common/outbox/domain-event-publisher';
import { Outbox, type PendingEvents } from '../../common/outbox/outbox';
import { parseDatetime } from '../../common/time/datetimes';
import { MINUTE } from '../../common/time/durations';
import type { Account } from '../accounts/account.entity';
import type { Label } from '../catalog/label.entity';
import { assertTimezone } from '../accounts/account-rules';
import { MAX_APPOINTMENT_MINUTES, busyWindow, readBusyTime } from '../availability/busy-time';
import { lockCalendarReadingBusy } from '../availability/calendar-locks';
import type { Span } from '../availability/working-time';
import { type SlotContext, resolveSlotContext, scheduleOf } from '../availability/slot-context';
import { advanceWindow, checkSession, checkStart } from '../availability/slot-engine';
import { invalidAppointmentType } from '../catalog/catalog.errors';
import { ClassSession } from '../catalog/class-session.entity';
import { priceAfterCoupon } from '../certificates/coupon-price';
import { CertificatesService } from '../certificates/certificates.service';
import { kindOf } from '../certificates/certificate.view';
import { type FieldValue, validateFieldValues } from '../forms/field-values';
import { FormsService } from '../forms/forms.service';
import { AppointmentFieldValue } from './appointment-field-value.entity';
import {
  AppointmentChangedEvent,
  AppointmentScheduledEvent,
  eventPayload,
} from './appointment-events';
import { Appointment } from './appointment.entity';
import type { AppointmentView } from './appointment.view';
import { AppointmentViews } from './appointment-views';
import { BookAppointmentCommand } from './book-appointment.command';
import {
  type BookAppointmentRequest,
  type BookingInput,
  bookingInput,
} from './book-appointment.request';
import { AppointmentsQueries } from './appointments.queries';
import { type IdempotencyClaim, IdempotencyKeys } from './idempotency-keys';
import {
  assertClientTextFits,
  blank,
  checkLabel,
  lockCalendars,
  retryLockConflicts,
} from './appointment-changes';
import { toId } from '../../common/http/id-list';
import { shown } from '../../common/errors/domain-error';
import { NotAvailableError } from '../availability';

const required = (code: string, message: string) => new InvalidAttributeError(code, message);

/** What the checks before the transaction settled. */
interface Checked {
  ctx: SlotContext;
  start: number;
  datetimeText: string;
  timezone: string | undefined;
  fieldValues: FieldValue[];
  label: Label | null;
}

/**
 * Books an appointment as the contract says: the attributes, type, calendar, zone and datetime,
 * forms and label are checked first (in the contract's order); then one transaction locks the
 * candidate calendars (ascending id), checks availability with the slot engine on what is committed,
 * takes a package's use, inserts the appointment and its `scheduled` and `changed` events. Two
 * bookings of one calendar are thus served one after the other: no double booking.
 */
@CommandHandler(BookAppointmentCommand)
export class BookAppointmentHandler implements ICommandHandler<BookAppointmentCommand> {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly forms: FormsService,
    private readonly certificates: CertificatesService,
    private readonly outbox: Outbox,
    private readonly events: DomainEventPublisher,
    private readonly views: AppointmentViews,
    private readonly idempotencyKeys: IdempotencyKeys,
    private readonly metrics: Metrics,
    private readonly queries: AppointmentsQueries,
  ) {}

  /**
   * With an `Idempotency-Key`, a request sent again answers the appointment it booked (see
   * IdempotencyKeys.once).
   */
  async execute({
    account,
    request,
    mode,
    idempotencyKey,
  }: BookAppointmentCommand): Promise<AppointmentView> {
    const claim = this.idempotencyKeys.claim(idempotencyKey, request, mode);
    return this.idempotencyKeys.once(
      account.id,
      claim,
      () => this.bookOnce(account, request, mode, claim),
      (bookedId) => this.queries.get(account.id, bookedId),
    );
  }

  private async bookOnce(
    account: Account,
    request: BookAppointmentRequest,
    mode: BookAppointmentCommand['mode'],
    idempotency: IdempotencyClaim | undefined,
  ): Promise<AppointmentView> {
    // The account's settings are the principal's: read at authentication, at most AUTH_CACHE_TTL_MS
    // old on another pod (at once on the pod that changed them), as for availability and API keys.
    const input = bookingInput(request);
    const checked = await this.check(account, input, mode.admin);
    // Transactions run at READ COMMITTED (every connection's level, see useReadCommitted): the busy
    // time read under the calendars' locks sees every booking committed before the lock was ours.
    const { appointment, pending } = await retryLockConflicts(() =>
      this.dataSource.transaction((tx) =>
        this.book(tx, account, input, mode, checked, idempotency),
      ),
    );
    this.events.publishAfterCommit(pending);
    this.metrics.countBooking('booked');
    const calendar = checked.ctx.calendars.find((c) => c.id === appointment.calendarId)!;
    return this.views.renderWritten(appointment, {
      type: checked.ctx.type,
      calendar,
      label: checked.label && {
        id: checked.label.id,
        name: checked.label.name,
        color: checked.label.color,
      },
      hasAnswers: checked.fieldValues.length > 0,
    });
  }

  /** Everything that needs no lock, in the contract's order of errors. */
  private async check(account: Account, r: BookingInput, admin: boolean): Promise<Checked> {
    if (blank(r.firstName))
      throw required('required_first_name', 'Attribute "firstName" is required.');
    if (blank(r.lastName))
      throw required('required_last_name', 'Attribute "lastName" is required.');
    assertClientTextFits('firstName', r.firstName);
    assertClientTextFits('lastName', r.lastName);
    if (!admin) {
      if (blank(r.email)) throw required('required_email', 'Attribute "email" is required.');
      if (!isEmail(r.email!.trim()))
        throw new InvalidAttributeError('invalid_email', 'Invalid "email" attribute value.');
      if (account.requirePhone && blank(r.phone))
        throw required('required_phone', 'Attribute "phone" is required.');
    }
    assertClientTextFits('email', r.email);
    assertClientTextFits('phone', r.phone);
    if (
      r.appointmentTypeID === undefined ||
      r.appointmentTypeID === null ||
      r.appointmentTypeID === ''
    )
      throw required(
        'required_appointment_type_id',
        'The parameter "appointmentTypeID" is required.',
      );
    if (r.datetime === undefined || r.datetime === null || r.datetime === '')
      throw required('required_datetime', 'The parameter "datetime" is required.');

    const typeId = toId(r.appointmentTypeID);
    if (typeId === undefined) throw invalidAppointmentType(shown(r.appointmentTypeID));
    let calendarId: number | undefined;
    if (r.calendarID !== undefined && r.calendarID !== null && r.calendarID !== '') {
      calendarId = toId(r.calendarID);
      if (calendarId === undefined)
        throw new InvalidAttributeError(
          'invalid_calendar',
          `The calendar "${shown(r.calendarID)}" does not exist.`,
        );
    } else if (admin) {
      throw required('required_calendar_id', 'The parameter "calendarID" is required.');
    }
    const addonList = toIdList(r.addonIDs);
    const addonIds = addonList === undefined || addonList === null ? [] : (addonList as unknown[]);
    if (!Array.isArray(addonIds) || !addonIds.every((id) => toId(id) !== undefined))
      throw new InvalidAttributeError('invalid_addon_ids', 'Invalid "addonIDs" attribute value.');
    const ctx = await resolveSlotContext(this.dataSource.manager, account, {
      appointmentTypeID: typeId,
      calendarID: calendarId,
      addonIDs: addonIds as number[],
    });
    // Busy time is read on index ranges bounded by the longest busy span (MAX_BUSY_SPAN_MINUTES): a
    // longer appointment would escape them and be double-booked. Clients get not_available below.
    if (admin && ctx.rules.duration > MAX_APPOINTMENT_MINUTES)
      throw new InvalidAttributeError(
        'invalid_addon_ids',
        `An appointment lasts at most ${MAX_APPOINTMENT_MINUTES} minutes, addons included.`,
      );
    const timezone = r.timezone === undefined ? undefined : assertTimezone(r.timezone);
    const datetimeText = shown(r.datetime);
    const zone = calendarId !== undefined ? ctx.calendars[0].timezone : account.timezone;
    const parsed =
      typeof r.datetime === 'string'
        ? parseDatetime(r.datetime, zone)
        : ({ kind: 'invalid' } as const);
    if (parsed.kind === 'invalid' || (admin && parsed.kind === 'nonexistent'))
      throw new InvalidAttributeError(
        'invalid_datetime',
        `The datetime "${datetimeText}" is invalid.`,
      );

    const definitions =
      ctx.type.hasForms === false
        ? []
        : await this.forms.fieldDefinitionsFor(account.id, ctx.type.id);
    const fieldValues = validateFieldValues(
      definitions,
      (r.fields ?? []).map((f) =>
        typeof f === 'object' && f !== null
          ? (f as { id: unknown; value: unknown })
          : { id: f, value: undefined },
      ),
      { asAdmin: admin },
    );
    const label = await checkLabel(this.dataSource.manager, account.id, r.labels ?? []);

    // A local time that a DST change skips never happens: no calendar can take it.
    if (parsed.kind === 'nonexistent') throw new NotAvailableError('not_available', datetimeText);
    return { ctx, start: parsed.moment.toMillis(), datetimeText, timezone, fieldValues, label };
  }

  private async book(
    tx: EntityManager,
    account: Account,
    r: BookingInput,
    mode: BookAppointmentCommand['mode'],
    { ctx, start, datetimeText, timezone, fieldValues, label }: Checked,
    idempotency: IdempotencyClaim | undefined,
  ): Promise<{ appointment: Appointment; pending: PendingEvents }> {
    const { rules, type } = ctx;
    // As availability: an inactive type, or one longer than a day with its addons, offers nothing.
    const offered = type.active && rules.duration <= MAX_APPOINTMENT_MINUTES;
    // A client's booking of one calendar's service locks the calendar and reads its busy time in
    // one statement; any other booking locks first, then reads what it needs.
    const lockedBusy =
      !mode.admin && offered && type.kind === 'service' && ctx.calendars.length === 1
        ? ((await lockCalendarReadingBusy(tx, ctx.calendars[0].id, busyWindow(rules, start))) ?? [])
        : undefined;
    if (!lockedBusy)
      await lockCalendars(
        tx,
        ctx.calendars.map((c) => c.id),
      );

    const end = start + rules.duration * MINUTE;
    let calendar = ctx.calendars[0];
    let classId: number | null = null;
    if (!mode.admin) {
      const { earliest, latest } = advanceWindow(rules, Date.now());
      if (start < earliest)
        throw new NotAvailableError('not_available_min_hours_in_advance', datetimeText);
      if (start > latest)
        throw new NotAvailableError('not_available_max_days_in_advance', datetimeText);
      const free = offered ? await this.freeCalendar(tx, ctx, start, lockedBusy) : null;
      if (!free) {
        this.metrics.countBooking('conflict');
        if (r.calendarID === undefined || r.calendarID === null || r.calendarID === '')
          throw new InvalidAttributeError(
            'no_available_calendar',
            'We could not find an available calendar.',
          );
        throw new NotAvailableError('not_available', datetimeText);
      }
      ({ calendar, classId } = free);
    } else if (type.kind === 'class') {
      const session = await tx.findOneBy(ClassSession, {
        appointmentTypeId: type.id,
        calendarId: calendar.id,
        startsAt: new Date(start),
      });
      classId = session?.id ?? null;
    }

    const priceCents = this.price(ctx);
    let priceSoldCents = priceCents;
    let certificateId: number | null = null;
    let certificateCode: string | null = null;
    if (r.certificate !== undefined && r.certificate.trim() !== '') {
      const resolved = await this.certificates.validate(
        tx,
        account,
        r.certificate,
        type.id,
        r.email ?? null,
        {
          forUpdate: true,
        },
      );
      await this.certificates.consumeUse(tx, resolved, type.id);
      certificateCode = resolved.code;
      certificateId = resolved.certificate?.id ?? null;
      const kind = kindOf(resolved);
      if (kind === 'package') priceSoldCents = 0;
      else if (kind === 'coupon' && resolved.coupon)
        priceSoldCents = priceAfterCoupon(priceCents, resolved.coupon);
    }

    const now = new Date();
    const appointment = tx.create(Appointment, {
      accountId: account.id,
      appointmentTypeId: type.id,
      calendarId: calendar.id,
      classId,
      startsAt: new Date(start),
      endsAt: new Date(end),
      busyFrom: new Date(start - rules.paddingBefore * MINUTE),
      busyUntil: new Date(end + rules.paddingAfter * MINUTE),
      canceled: false,
      firstName: r.firstName!.trim(),
      lastName: r.lastName!.trim(),
      email: (r.email ?? '').trim().toLowerCase(),
      phone: (r.phone ?? '').trim(),
      timezone: timezone ?? calendar.timezone,
      notes: mode.admin ? (r.notes ?? null) : null,
      priceCents,
      priceSoldCents,
      amountPaidCents: 0,
      certificate: certificateCode,
      certificateId,
      addonIds: ctx.addons.map((a) => a.id),
      labelId: label?.id ?? null,
      // Stored as given; whether it matters is the type's rule (notifications read it).
      smsOptIn: r.smsOptIn ?? false,
      noShow: false,
      cancelNote: null,
      canceledAt: null,
      scheduledBy: mode.admin ? account.email : null,
      createdAt: now,
      updatedAt: now,
    });
    appointment.id = Number(await insertRows(tx, Appointment, [appointment]));
    if (idempotency) await this.idempotencyKeys.record(tx, account.id, idempotency, appointment.id);
    if (fieldValues.length > 0)
      await tx.insert(
        AppointmentFieldValue,
        fieldValues.map((v) => ({
          appointmentId: appointment.id,
          fieldId: v.fieldId,
          formId: v.formId,
          value: v.value,
        })),
      );
    const payload = eventPayload(appointment, mode.noEmail);
    const pending = await this.outbox.record(tx, [
      new AppointmentScheduledEvent(account.id, payload),
      new AppointmentChangedEvent(account.id, payload),
    ]);
    return { appointment, pending };
  }

  /**
   * The first calendar (ascending id) that can take `start`, read under the calendars' locks: for a
   * service, by the slot engine on the committed busy time; for a class, a session with a free seat.
   */
  private async freeCalendar(
    tx: EntityManager,
    ctx: SlotContext,
    start: number,
    /** The busy time of the one calendar, when it was read with its lock. */
    lockedBusy: Span[] | undefined,
  ): Promise<{ calendar: SlotContext['calendars'][number]; classId: number | null } | null> {
    const now = Date.now();
    if (ctx.type.kind === 'class') {
      for (const calendar of ctx.calendars) {
        const session = await tx.findOneBy(ClassSession, {
          appointmentTypeId: ctx.type.id,
          calendarId: calendar.id,
          startsAt: new Date(start),
        });
        if (!session) continue;
        const taken = await tx.countBy(Appointment, { classId: session.id, canceled: false });
        const seats = ctx.type.classSize ?? 0;
        if (checkSession({ start, seats, taken }, ctx.rules, now) === null)
          return { calendar, classId: session.id };
      }
      return null;
    }
    const { rules } = ctx;
    const busy = lockedBusy
      ? new Map([[ctx.calendars[0].id, lockedBusy]])
      : await readBusyTime(
          tx,
          ctx.calendars.map((c) => c.id),
          busyWindow(rules, start),
        );
    for (const calendar of ctx.calendars) {
      const schedule = scheduleOf(calendar, busy);
      if (checkStart(schedule, rules, start, now) === null) return { calendar, classId: null };
    }
    return null;
  }

  /** The type's price and the chosen addons'. */
  private price(ctx: SlotContext): number {
    return ctx.type.priceCents + ctx.addons.reduce((sum, addon) => sum + addon.priceCents, 0);
  }
}
