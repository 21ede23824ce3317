import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { insertRows } from '../../common/database/insert-rows';
import { retryLockConflicts } from '../../common/database/lock-retries';
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
  resolveSlotContext,
  slotRequestOf,
  withinDayShare,
} from '../availability';
import { claimAccountHolds, liveHolds, liveNetworkHolds, releaseVisitorHolds } from './hold-caps';
import {
  DayHoldShareError,
  HoldTooLongError,
  InvalidHoldAddonIdsError,
  InvalidHoldMinutesError,
  NetworkHoldLimitError,
  TooManyHoldsError,
} from './holds.errors';
import type { CreateSlotHoldRequest, ExtendSlotHoldRequest } from './slot-hold.requests';
import { type CreatedSlotHoldView, type SlotHoldView, toSlotHoldView } from './slot-hold.view';

/** A hold made without `minutes` lasts this long (or the account's longest, if shorter). */
export const DEFAULT_HOLD_MINUTES = 5;

/**
 * Slot holds: a time held for a client while they pay or fill in a form, then booked with its token
 * (POST /appointments `holdToken`). A hold is checked exactly as a client's booking is, by the same
 * SlotPlacement under the same calendar locks, so that two holds, or a hold and a booking, never take
 * one slot; it is busy time (a seat, for a class) until it expires, is released or is booked. No
 * event is recorded: webhooks and notifications hear of the appointment only.
 */
@Injectable()
export class SlotHoldsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly placement: SlotPlacement,
    private readonly locks: CalendarLocks,
    private readonly secrets: Secrets,
  ) {}

  /**
   * Checks in booking's order and codes (the client's details aside), then holds the time. With a
   * `visitor`, a hold of the scheduling page, rationed as docs/pages.md says: it replaces the
   * visitor's previous hold, and is refused (429 `too_many_holds`) past the network's holds at once
   * or the day's share; without, an API hold, refused past the account's `maxLiveHolds`.
   */
  async create(
    account: Account,
    request: CreateSlotHoldRequest,
    visitor?: PageVisitor,
  ): Promise<CreatedSlotHoldView> {
    const slot = slotRequestOf(request);
    const addonIDs = addonIdsOf(request.addonIDs);
    const ctx = await resolveSlotContext(this.dataSource.manager, account, { ...slot, addonIDs });
    const calendarNamed = slot.calendarID !== undefined;
    const zone = calendarNamed ? ctx.calendars[0].timezone : account.timezone;
    const clientZone =
      request.timezone === undefined || request.timezone === null
        ? undefined
        : assertTimezone(shown(request.timezone));
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

    const hold = await retryLockConflicts(() =>
      this.dataSource.transaction(async (tx) => {
        await claimAccountHolds(tx, account.id);
        if (page) await admitPageHold(tx, account, page, Date.now());
        else await admitApiHold(tx, account, Date.now());
        const placed = await this.placement.client(tx, ctx, { start, datetimeText, calendarNamed });
        const busy = busyWindow(ctx.rules, start);
        const now = Date.now();
        const hold = tx.create(SlotHold, {
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
          visitorHash: page?.visitorHash ?? null,
          addressHash: page?.addressHash ?? null,
        });
        // Under the calendar's lock already (placement): the bit costs no wait. A class hold takes
        // a seat, not busy time: no bit.
        if (placed.classId === null)
          await markBusyKind(tx, BusyKind.holds, placed.calendar.id, account.id);
        hold.id = Number(await insertRows(tx, SlotHold, [hold]));
        // Measured with the hold written: refused, it is rolled back with the transaction.
        const percent = account.pageHoldDayShare;
        if (page && percent < 100) {
          const share = await pageHoldDayShare(tx, ctx, start, clientZone ?? zone, now);
          if (!withinDayShare(share, percent)) throw new DayHoldShareError(percent);
        }
        return hold;
      }),
    );
    return { ...toSlotHoldView(hold), token };
  }

  /** What a page hold records of its visitor: keyed hashes, never the cookie or the address. */
  private pageHoldOf(visitor: PageVisitor): PageHold {
    const keyed = (text: string) => Buffer.from(this.secrets.hash(text), 'hex');
    return {
      visitorHash: keyed(`hold-visitor:${visitor.session}`),
      addressHash: keyed(`hold-network:${visitor.network}`),
    };
  }

  async get(accountId: number, id: number): Promise<SlotHoldView> {
    return toSlotHoldView(await liveHold(this.dataSource.manager, accountId, id));
  }

  /**
   * The hold ends `minutes` from now, at most the account's longest hold after it was made. Under
   * its calendar's lock: a booking that found it expired has either committed (the hold is gone for
   * good: 404) or will see it extended.
   */
  async extend(
    account: Account,
    id: number,
    request: ExtendSlotHoldRequest,
  ): Promise<SlotHoldView> {
    if (request.minutes === undefined || request.minutes === null)
      throw new RequiredParameterError('minutes');
    const max = account.holdMaxMinutes;
    const minutes = minutesOf(request, max);
    const found = await liveHold(this.dataSource.manager, account.id, id);
    return retryLockConflicts(() =>
      this.dataSource.transaction(async (tx) => {
        await this.locks.lock(tx, [found.calendarId]);
        const hold = await liveHold(tx, account.id, id, true);
        const now = Date.now();
        const expiresAt = now + minutes * MINUTE;
        if (expiresAt > hold.createdAt.getTime() + max * MINUTE) throw new HoldTooLongError(max);
        hold.expiresAt = new Date(expiresAt);
        await tx.update(SlotHold, { id: hold.id }, { expiresAt: hold.expiresAt });
        return toSlotHoldView(hold);
      }),
    );
  }

  /** Releases the time at once: it is offered again. 404 for a hold that has already ended. */
  async release(accountId: number, id: number): Promise<void> {
    const deleted = await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(SlotHold)
      .where('id = :id AND account_id = :accountId AND expires_at > :now', {
        id,
        accountId,
        now: new Date(),
      })
      .execute();
    if (!deleted.affected) throw new NotFoundError();
  }
}

/** A visitor of the scheduling page, whose holds are rationed: their page session and network. */
export interface PageVisitor {
  /** The page session: the nonce of the pages' cookie (PageCsrf). One live hold each. */
  session: string;
  /** The client's network (clientKeyOf: an IPv4 address, an IPv6 /64). */
  network: string;
}

interface PageHold {
  visitorHash: Buffer;
  addressHash: Buffer;
}

/**
 * A page hold's own caps, under the account's hold row: the visitor's previous hold ends (a new one
 * replaces it), then the network's live holds must leave room for one more.
 */
async function admitPageHold(
  tx: EntityManager,
  account: Account,
  page: PageHold,
  now: number,
): Promise<void> {
  await releaseVisitorHolds(tx, account.id, page.visitorHash, now);
  const max = account.pageHoldsPerAddress;
  if (max === 0 || (await liveNetworkHolds(tx, account.id, page.addressHash, now)) >= max)
    throw new NetworkHoldLimitError(max);
}

/** An API hold fits under the account's `maxLiveHolds`, under the account's hold row. */
async function admitApiHold(tx: EntityManager, account: Account, now: number): Promise<void> {
  const live = await liveHolds(tx, account.id, 'api', now);
  if (live.count < account.maxLiveHolds) return;
  const wait = Math.max(1, Math.ceil(((live.firstEnd ?? now) - now) / 1000));
  throw new TooManyHoldsError(account.maxLiveHolds, wait);
}

/**
 * The account's live hold `id`: 404 for one that has ended (expired, released or booked) and for
 * another account's, which this account cannot tell from one that never existed.
 */
async function liveHold(
  manager: EntityManager,
  accountId: number,
  id: number,
  forUpdate = false,
): Promise<SlotHold> {
  const hold = await manager.findOne(SlotHold, {
    where: { id, accountId },
    ...(forUpdate ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (!hold || hold.expiresAt.getTime() <= Date.now()) throw new NotFoundError();
  return hold;
}

/** `minutes` given: a whole number (a JSON number) from 1 to `max`. */
function minutesOf({ minutes }: { minutes?: unknown }, max: number): number {
  if (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > max)
    throw new InvalidHoldMinutesError(max);
  return minutes;
}

/** `addonIDs` in any of the shapes lists are sent in, as booking reads them. */
function addonIdsOf(value: unknown): number[] {
  const list = toIdList(value);
  const ids = list === undefined || list === null ? [] : list;
  if (!Array.isArray(ids) || !ids.every((id) => toId(id) !== undefined))
    throw new InvalidHoldAddonIdsError();
  return ids as number[];
}
