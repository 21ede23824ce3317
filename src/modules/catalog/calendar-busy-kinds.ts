/**
 * The kinds of busy time a calendar may have besides appointments, one bit each in
 * `calendars.busy_kinds`, set (never cleared) by markBusyKind in the transaction that writes a row
 * of the kind. A booking's lock statement leaves out the subqueries of the kinds its calendar never
 * had (lockCalendarReadingBusy): each costs the database ~40 µs per booking even over no rows.
 */
export const BusyKind = {
  blocks: 1,
  sessions: 2,
  holds: 4,
  external: 8,
  /** A collective appointment of which it is not the host (appointment_members). */
  members: 16,
  /** A collective hold of which it is not the host (slot_hold_members). */
  heldMembers: 32,
} as const;
export type BusyKind = (typeof BusyKind)[keyof typeof BusyKind];
export const ALL_BUSY_KINDS = 63;
