import { type Language, isLanguage } from '../../common/i18n';
import { isValidTimezone } from '../../common/time/zones';
import { isCalendarDate, isCalendarMonth } from '../../common/time/calendar-dates';

/** A reader of request parameters: a parsed query (qs) or a posted form. */
export interface Params {
  get(name: string): string | undefined;
  getAll(name: string): string[];
  names(): string[];
}

const isText = (value: unknown): value is string => typeof value === 'string';
const texts = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter(isText);

/** The query as qs parsed it: `a=1&a=2` and `a[]=1&a[]=2` both give a list. */
export function queryParams(query: unknown): Params {
  const q = (typeof query === 'object' && query !== null ? query : {}) as Record<string, unknown>;
  const all = (name: string) => [...texts(q[name]), ...texts(q[`${name}[]`])];
  const first = (value: unknown) => (Array.isArray(value) ? value.find(isText) : value);
  return {
    // Most names are absent, and a name is given once: no list made.
    get: (name) => {
      const value = first(q[name]);
      return isText(value) ? value : all(name)[0];
    },
    getAll: all,
    names: () => Object.keys(q),
  };
}

export function formParams(form: URLSearchParams): Params {
  const all = (name: string) => [...form.getAll(name), ...form.getAll(`${name}[]`)];
  return { get: (name) => all(name)[0], getAll: all, names: () => [...new Set(form.keys())] };
}

/** The client's details and answers a link or a form fills in (the reference's dynamic links). */
export interface Prefill {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  certificate?: string;
  /** Answers by field id; a checkbox list's options joined by ", ". */
  fields: Map<number, string>;
}

/** What the client has chosen so far, step by step: the URL of each step says all of it. */
export interface Choices {
  typeIds: number[];
  calendarId?: number;
  addonIds: number[];
  /** A valid IANA zone; else the calendar's. */
  timezone?: string;
  /** `YYYY-MM` shown in the date step. */
  month?: string;
  /** `YYYY-MM-DD`. */
  date?: string;
  /** A time of the time list, `YYYY-MM-DDThh:mm:ss±hhmm`. */
  datetime?: string;
  /** The token of the hold on that time (slot holds), while the client fills in the form. */
  hold?: string;
  /** A series asked for at the details step (`repeat=weekly&count=6`): checked when booked. */
  repeat?: RepeatChoice;
  /** The language the link asked for (`lang=`), carried from step to step; else the browser's. */
  lang?: Language;
  prefill: Prefill;
}

export interface RepeatChoice {
  frequency: 'daily' | 'weekly' | 'monthly';
  /** 2–52 (the API's bounds; the type's `maxCount` is the booking's to check). */
  count: number;
}

const FREQUENCIES = new Set(['daily', 'weekly', 'monthly']);

/** `repeat` and `count` as sent: a choice when both are ones the API takes at all, else none. */
function readRepeat(params: Params): RepeatChoice | undefined {
  const frequency = params.get('repeat');
  const count = params.get('count');
  if (!frequency || !FREQUENCIES.has(frequency) || !count || !/^\d{1,2}$/.test(count))
    return undefined;
  const n = Number(count);
  return n >= 2 && n <= 52
    ? { frequency: frequency as RepeatChoice['frequency'], count: n }
    : undefined;
}

const ID = /^[1-9]\d{0,9}$/;
const ids = (values: string[]) =>
  [...new Set(values.flatMap((v) => v.split(',')).filter((v) => ID.test(v.trim())))].map((v) =>
    Number(v.trim()),
  );
/** Given as sent: the booking command checks each as `POST /appointments` does. */
const text = (value: string | undefined) => value;

/**
 * A time as the time list writes it (`2030-06-03T09:30:00-0400`) on a calendar date of a supported
 * year (isCalendarDate), at a clock time a day has (`25:99` is not one): what the details step
 * writes out as a moment.
 */
function isTimeOfDay(datetime: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(:\d{2})?[+-]\d{4}$/.exec(datetime);
  return (
    match !== null &&
    isCalendarDate(match[1]) &&
    Number(match[2]) < 24 &&
    Number(match[3]) < 60 &&
    (match[4] === undefined || Number(match[4].slice(1)) < 60)
  );
}

export function readChoices(params: Params): Choices {
  const month = params.get('month');
  const date = params.get('date');
  const datetime = params.get('datetime');
  const timezone = params.get('timezone');
  const hold = params.get('hold');
  const lang = params.get('lang');
  const fields = new Map<number, string>();
  for (const name of params.names()) {
    const id = /^field:([1-9]\d{0,9})$/.exec(name.replace(/\[\]$/, ''))?.[1];
    if (!id) continue;
    // Checked by the booking command as the API checks them (lengths included).
    const values = params.getAll(`field:${id}`);
    if (values.length > 0) fields.set(Number(id), values.join(', '));
  }
  return {
    typeIds: ids(params.getAll('appointmentType')).slice(0, 50),
    calendarId: ids(params.getAll('calendarID'))[0],
    addonIds: ids(params.getAll('addonIDs')).slice(0, 50),
    timezone: timezone !== undefined && isValidTimezone(timezone) ? timezone : undefined,
    // A month or date no calendar has, or of a year the service does not take, is not a choice
    // (as text that is not one at all).
    month: isCalendarMonth(month) ? month : undefined,
    date: isCalendarDate(date) ? date : undefined,
    datetime: datetime !== undefined && isTimeOfDay(datetime) ? datetime : undefined,
    hold: hold !== undefined && /^[\w-]{1,128}$/.test(hold) ? hold : undefined,
    repeat: readRepeat(params),
    lang: isLanguage(lang) ? lang : undefined,
    prefill: {
      firstName: text(params.get('firstName')),
      lastName: text(params.get('lastName')),
      email: text(params.get('email')),
      phone: text(params.get('phone')),
      certificate: text(params.get('certificate')),
      fields,
    },
  };
}

type Pair = [string, string];

/** The prefill as parameters, to carry from one step to the next. */
export function prefillPairs(prefill: Prefill): Pair[] {
  const pairs: Pair[] = [];
  for (const key of ['firstName', 'lastName', 'email', 'phone', 'certificate'] as const) {
    const value = prefill[key];
    if (value !== undefined && value !== '') pairs.push([key, value]);
  }
  for (const [id, value] of prefill.fields) if (value !== '') pairs.push([`field:${id}`, value]);
  return pairs;
}

/** The choices up to a step, as parameters (hidden inputs, or a link's query). */
export function choicePairs(
  c: Choices,
  upTo: { date?: boolean; datetime?: boolean; month?: boolean } = {},
): Pair[] {
  const pairs: Pair[] = c.typeIds.map((id) => ['appointmentType', String(id)]);
  if (c.calendarId !== undefined) pairs.push(['calendarID', String(c.calendarId)]);
  for (const id of c.addonIds) pairs.push(['addonIDs', String(id)]);
  if (c.timezone) pairs.push(['timezone', c.timezone]);
  if (c.lang) pairs.push(['lang', c.lang]);
  if (upTo.month && c.month) pairs.push(['month', c.month]);
  if (upTo.date && c.date) pairs.push(['date', c.date]);
  if (upTo.datetime && c.datetime) pairs.push(['datetime', c.datetime]);
  if (upTo.datetime && c.hold) pairs.push(['hold', c.hold]);
  if (upTo.datetime && c.repeat)
    pairs.push(['repeat', c.repeat.frequency], ['count', String(c.repeat.count)]);
  return [...pairs, ...prefillPairs(c.prefill)];
}

export function queryOf(pairs: Pair[]): string {
  const query = new URLSearchParams(pairs).toString();
  return query ? `?${query}` : '';
}
