import { timingSafeEqual } from 'node:crypto';
import { BoundedMap } from '../../common/cache/bounded-map';
import { EpochCache } from '../../common/cache/epoch-cache';
import { type AppointmentView, viewAsOf } from '../appointments';
import type { Appointment } from '../availability';

/** An appointment as its confirmation page shows it: the row and its view. */
export interface Confirmation {
  appointment: Appointment;
  view: AppointmentView;
}

interface Kept extends Confirmation {
  /** The page's token, checked against the row when it was kept. */
  token: string;
}

/**
 * Appointments read for their confirmation pages, kept by one process, so that a page opened again
 * while nothing was written for its account costs a Redis round trip instead of the database's
 * reads (the page within 1.5× of `/availability/times`, itself a kept answer). Kept in an
 * EpochCache, under its account's write epoch read *before* the row was (any write for the account
 * since, on any process, makes it stale: a cancel, a move, a payment, a renamed calendar or type),
 * at most `ttlMs`; and
 * - the one part of a view the clock alone changes, whether the client may still cancel or move it
 *   (`clientChangeMinHours` before the start), is worked out again each time it is served.
 *
 * The epoch to read first is the appointment's account's, which only the row tells: an appointment
 * never changes account, so the first read of a row teaches it (`accountOf`) and a later one keeps
 * it. A kept row is served only for the token it was checked against when it was kept (a
 * constant-time compare, the MAC's own check made once).
 */
export class KeptConfirmations {
  private readonly accounts: BoundedMap<number, number>;
  private readonly kept: EpochCache<number, Kept>;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.accounts = new BoundedMap(maxEntries);
    this.kept = new EpochCache(ttlMs, maxEntries);
  }

  /** The appointment's account, when a row of it was read here. */
  accountOf(appointmentId: number): number | undefined {
    return this.accounts.get(appointmentId);
  }

  /**
   * The confirmation kept under `epoch` for `token`, with whether the client may still change it as
   * of `now` (the account's `clientChangeMinHours`, as the caller read the account now).
   */
  get(
    appointmentId: number,
    token: string,
    epoch: string,
    now: number,
    clientChangeMinHours: number,
  ): Confirmation | undefined {
    const entry = this.kept.get(appointmentId, epoch, now);
    if (entry === undefined || !sameToken(entry.token, token)) return undefined;
    return {
      appointment: entry.appointment,
      view: viewAsOf(entry.view, entry.appointment, clientChangeMinHours, now),
    };
  }

  /**
   * A row was read (and its view made) and `token` checked against it: learns its account, and
   * keeps it when `epoch`, the account's epoch read before the row, is known.
   */
  keep(confirmation: Confirmation, token: string, epoch: string | undefined, now: number): void {
    const { appointment } = confirmation;
    this.accounts.set(appointment.id, appointment.accountId);
    if (epoch === undefined) return;
    const kept = { ...confirmation, token };
    this.kept.keep(appointment.id, epoch, { answer: kept, validUntil: Infinity }, now);
  }
}

function sameToken(keptToken: string, token: string): boolean {
  const kept = Buffer.from(keptToken, 'utf8');
  const asked = Buffer.from(token, 'utf8');
  return asked.length === kept.length && timingSafeEqual(asked, kept);
}
