import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { WriteHandler } from '../../common/cqrs/write-handler';
import { AccountItemAction } from '../../common/cqrs/account-messages';
import type { EntityManager } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { NotFoundError, shown } from '../../common/errors/domain-error';
import { toId, toIdList } from '../../common/http/id-list';
import { RequiredParameterError } from '../../common/http/required-parameter';
import { parseDatetime } from '../../common/time/datetimes';
import { MINUTE } from '../../common/time/durations';
import { InvalidDatetimeError } from '../../common/time/time.errors';
import { type Account, assertTimezone } from '../accounts';
import {
  BusyKind,
  CalendarLocks,
  NotAvailableError,
  SlotHold,
  SlotPlacement,
  busyWindow,
  markBusyKind,
  newHoldToken,
  pageHoldDayShare,
  slotRequestOf,
  insertMembers,
  withinDayShare,
} from '../availability';
import {
  DayHoldShareError,
  HoldTooLongError,
  InvalidHoldAddonIdsError,
  InvalidHoldMinutesError,
  NetworkHoldLimitError,
  TooManyHoldsError,
} from './holds.errors';
import type { CreateSlotHoldRequest, ExtendSlotHoldRequest } from './slot-hold.requests';
import { SlotHoldRepository } from './slot-hold.repository';
import { type CreatedSlotHoldView, type SlotHoldView, toSlotHoldView } from './slot-hold.view';

/** A hold made without `minutes` lasts this long (or the account's longest, if shorter). */
const DEFAULT_HOLD_MINUTES = 5;

/** A visitor of the scheduling page, whose holds are rationed: their page session and network. */
export interface PageVisitor {
  /** The page session: the nonce of the pages' cookie (PageCsrf). One live hold each. */
  session: string;
  /** The client's network (clientKeyOf: an IPv4 address, an IPv6 /64). */
  network: string;
}

/** What a page hold records of its visitor: keyed hashes, never the cookie or the address. */
interface PageHold {
  visitorHash: Buffer;
  addressHash: Buffer;
}

/**
 * Holds a time (busy, or a class seat) until booked with its token (POST /appointments `holdToken`),
 * expired or released. Checked as a client's booking is (its order and codes) by the same
 * SlotPlacement under the same calendar locks: two holds, or a hold and a booking, never take one
 * slot. No event: webhooks and notifications hear of the appointment only. A page `visitor`'s hold
 * replaces their previous one and is refused (429) past the network's holds or the day's share
 * (docs/pages.md); an API hold, past the account's `maxLiveHolds`.
 */
export class CreateSlotHoldCommand extends Command<CreatedSlotHoldView> {
  constructor(
    readonly account: Account,
    readonly request: CreateSlotHoldRequest,
    readonly visitor?: PageVisitor,
  ) {
    super();
  }
}

@CommandHandler(CreateSlotHoldCommand)
export class CreateSlotHoldHandler implements ICommandHandler<CreateSlotHoldCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly holds: SlotHoldRepository,
    private readonly placement: SlotPlacement,
    private readonly secrets: Secrets,
  ) {}

  async execute({ account, request, visitor }: CreateSlotHoldCommand) {
    const slot = slotRequestOf(request);
    const addonIDs = addonIdsOf(request.addonIDs);
    const ctx = await this.holds.slotContext(account, { ...slot, addonIDs });
    const calendarNamed = slot.calendarID !== undefined;
    const zone = calendarNamed ? ctx.calendars[0].timezone : account.timezone;
    const clientZone =
      request.timezone == null ? undefined : assertTimezone(shown(request.timezone));
    const datetimeText = shown(request.datetime);
    const parsed = parseDatetime(datetimeText, zone);
    if (parsed.kind === 'invalid') throw new InvalidDatetimeError(datetimeText);
    if (parsed.kind === 'nonexistent') throw new NotAvailableError('not_available', datetimeText);
    const start = parsed.moment.toMillis();
    const max = account.holdMaxMinutes;
    const minutes =
      request.minutes === undefined ? Math.min(DEFAULT_HOLD_MINUTES, max) : minutesOf(request, max);
    const { token, hash } = newHoldToken();
    const page = visitor ? this.pageHoldOf(visitor) : undefined;

    const hold = await this.unitOfWork.run(account.id, async (tx) => {
      await this.holds.claimAccountHolds(tx, account.id);
      if (page) await this.admitPageHold(tx, account, page, Date.now());
      else await this.admitApiHold(tx, account, Date.now());
      const placed = await this.placement.client(tx, ctx, { start, datetimeText, calendarNamed });
      const busy = busyWindow(ctx.rules, start);
      const now = Date.now();
      const hold = Object.assign(new SlotHold(), {
        accountId: account.id,
        appointmentTypeId: ctx.type.id,
        calendarId: placed.calendar.id,
        classId: placed.classId,
        startsAt: new Date(start),
        busyFrom: new Date(busy.from),
        busyUntil: new Date(busy.until),
        addonIds: ctx.addons.map((a) => a.id),
        timezone: clientZone ?? placed.calendar.timezone,
        tokenHash: hash,
        expiresAt: new Date(now + minutes * MINUTE),
        createdAt: new Date(now),
        origin: page ? 'page' : 'api',
        ...(page ?? { visitorHash: null, addressHash: null }),
        memberCalendarIds: placed.members?.map((m) => m.id) ?? null,
      });
      // Under the calendar's lock already (placement): the bit costs no wait. A class hold takes
      // a seat, not busy time: no bit.
      if (placed.classId === null)
        await markBusyKind(tx, BusyKind.holds, placed.calendar.id, account.id);
      hold.id = await this.holds.insert(tx, hold);
      // A collective type's: its other calendars are held too.
      await insertMembers(tx, 'hold', hold, hold.memberCalendarIds ?? []);
      // Measured with the hold written: refused, it is rolled back with the transaction.
      const percent = account.pageHoldDayShare;
      if (page && percent < 100) {
        const share = await pageHoldDayShare(tx, ctx, start, clientZone ?? zone, now);
        if (!withinDayShare(share, percent)) throw new DayHoldShareError(percent);
      }
      return hold;
    });
    return { ...toSlotHoldView(hold), token };
  }

  private pageHoldOf(visitor: PageVisitor): PageHold {
    const keyed = (text: string) => Buffer.from(this.secrets.hash(text), 'hex');
    return {
      visitorHash: keyed(`hold-visitor:${visitor.session}`),
      addressHash: keyed(`hold-network:${visitor.network}`),
    };
  }

  /** Under the account's hold row: the visitor's previous hold ends, then the network's cap. */
  private async admitPageHold(
    tx: EntityManager,
    account: Account,
    page: PageHold,
    now: number,
  ): Promise<void> {
    await this.holds.releaseVisitorHolds(tx, account.id, page.visitorHash, now);
    const max = account.pageHoldsPerAddress;
    if (
      max === 0 ||
      (await this.holds.liveNetworkHolds(tx, account.id, page.addressHash, now)) >= max
    )
      throw new NetworkHoldLimitError(max);
  }

  /** Under the account's hold row: the account's `maxLiveHolds`. */
  private async admitApiHold(tx: EntityManager, account: Account, now: number): Promise<void> {
    const live = await this.holds.liveHolds(tx, account.id, 'api', now);
    if (live.count < account.maxLiveHolds) return;
    const wait = Math.max(1, Math.ceil(((live.firstEnd ?? now) - now) / 1000));
    throw new TooManyHoldsError(account.maxLiveHolds, wait);
  }
}

/**
 * The hold ends `minutes` from now, at most the account's longest hold after it was made. Under its
 * calendar's lock: a booking that found it expired has committed (then 404) or will see it extended.
 */
export class ExtendSlotHoldCommand extends Command<SlotHoldView> {
  constructor(
    readonly account: Account,
    readonly id: number,
    readonly request: ExtendSlotHoldRequest,
  ) {
    super();
  }
}

@CommandHandler(ExtendSlotHoldCommand)
export class ExtendSlotHoldHandler implements ICommandHandler<ExtendSlotHoldCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly holds: SlotHoldRepository,
    private readonly locks: CalendarLocks,
  ) {}

  async execute({ account, id, request }: ExtendSlotHoldCommand): Promise<SlotHoldView> {
    if (request.minutes == null) throw new RequiredParameterError('minutes');
    const max = account.holdMaxMinutes;
    const minutes = minutesOf(request, max);
    const found = await this.holds.live(account.id, id);
    return this.unitOfWork.run(account.id, async (tx) => {
      await this.locks.lock(tx, [found.calendarId]);
      const hold = await this.holds.live(account.id, id, tx, true);
      const expiresAt = Date.now() + minutes * MINUTE;
      if (expiresAt > hold.createdAt.getTime() + max * MINUTE) throw new HoldTooLongError(max);
      hold.expiresAt = new Date(expiresAt);
      await this.holds.extend(tx, hold.id, hold.expiresAt);
      return toSlotHoldView(hold);
    });
  }
}

/** Releases the time at once: it is offered again. 404 for a hold that has already ended. */
export class ReleaseSlotHoldCommand extends AccountItemAction {}

@CommandHandler(ReleaseSlotHoldCommand)
export class ReleaseSlotHoldHandler extends WriteHandler(SlotHoldRepository) {
  async execute({ accountId, id }: ReleaseSlotHoldCommand): Promise<void> {
    const released = await this.unitOfWork.run(accountId, (tx) =>
      this.rows.release(tx, accountId, id, new Date()),
    );
    if (!released) throw new NotFoundError();
  }
}

/** `minutes` given: a whole number (a JSON number) from 1 to `max`. */
function minutesOf({ minutes }: { minutes?: unknown }, max: number): number {
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > max)
    throw new InvalidHoldMinutesError(max);
  return minutes;
}

/** `addonIDs` in any of the shapes lists are sent in, as booking reads them. */
function addonIdsOf(value: unknown): number[] {
  const ids = toIdList(value) ?? [];
  if (!Array.isArray(ids) || !ids.every((id) => toId(id) !== undefined))
    throw new InvalidHoldAddonIdsError();
  return ids as number[];
}
