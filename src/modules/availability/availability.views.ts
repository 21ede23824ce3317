/** `GET /availability/dates`. */
export interface AvailableDate {
  date: string;
}

/** `GET /availability/times`: a start, and how many calendars (or class seats) can take it. */
export interface AvailableTime {
  time: string;
  slotsAvailable: number;
}

/** `GET /availability/classes`, as clients of the reference service know it. */
export interface AvailableClass {
  id: number;
  appointmentTypeID: number;
  calendarID: number;
  name: string;
  time: string;
  calendar: string;
  duration: number;
  /** Sessions here are single dates, never part of a recurring series. */
  isSeries: boolean;
  slots: number;
  slotsAvailable: number;
}

/** `POST /availability/check-times`: the item as asked, and whether booking it would succeed. */
export interface CheckedTime {
  datetime?: unknown;
  appointmentTypeID?: unknown;
  calendarID?: unknown;
  addonIDs?: unknown;
  valid: boolean;
  /** The `error` code POST /appointments would give. */
  reason?: string;
}
