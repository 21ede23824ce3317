import { DateTime } from 'luxon';
import { escapeHtml } from '../../common/html/escape-html';
import type { Language } from '../../common/i18n/languages';
import { toSingleLine } from '../../common/http/text-rules';
import { formatClockTime, formatLongDate } from '../../common/time/datetimes';
import type { NotificationKind } from './notification.entity';

/** What a message says, read from the appointment when its job runs. */
export interface MessageFacts {
  kind: NotificationKind;
  firstName: string;
  typeName: string;
  calendarName: string;
  location: string;
  startsAt: Date;
  endsAt: Date;
  /** The appointment's zone: the client's when they gave one, else the calendar's. */
  timezone: string;
  /** The language it was booked in on a client page, else the account's. */
  language: Language;
  accountName: string;
  /** The appointment's page, where the client sees, cancels or reschedules it. */
  confirmationPage: string;
  /** A series' confirmation (sent for its first occurrence): every occurrence it lists. */
  series?: SeriesListing;
}

/** A series as its confirmation lists it: how it repeats, and its occurrences not canceled. */
export interface SeriesListing {
  frequency: 'daily' | 'weekly' | 'monthly';
  interval: number;
  occurrences: { startsAt: Date; endsAt: Date }[];
}

const UNIT = { daily: 'day', weekly: 'week', monthly: 'month' } as const;

/** `every week`, `every 2 months` */
function cadence(series: SeriesListing): string {
  const unit = UNIT[series.frequency];
  return series.interval === 1 ? `every ${unit}` : `every ${series.interval} ${unit}s`;
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** The appointment's time as messages write it, in its own zone. */
export interface When {
  /** `June 3, 2030` */
  date: string;
  /** `Monday` */
  weekday: string;
  /** `2:30pm` */
  time: string;
  endTime: string;
  /** `EDT`, or `GMT+2` where English has no abbreviation for the zone. */
  abbreviation: string;
  /** `America/New_York` */
  zone: string;
}

export function describeWhen(startsAt: Date, endsAt: Date, zone: string): When {
  const start = DateTime.fromJSDate(startsAt, { zone }).setLocale('en-US');
  const end = DateTime.fromJSDate(endsAt, { zone }).setLocale('en-US');
  return {
    date: formatLongDate(start),
    weekday: start.toFormat('cccc'),
    time: formatClockTime(start),
    endTime: formatClockTime(end),
    abbreviation: start.offsetNameShort ?? start.toFormat('ZZ'),
    zone: start.zoneName ?? zone,
  };
}

/** `EDT (America/New_York)`; just `UTC` when the two say the same. */
function zoneLabel(when: When): string {
  return when.abbreviation === when.zone ? when.zone : `${when.abbreviation} (${when.zone})`;
}

const SUBJECT: Record<NotificationKind, string> = {
  confirmation: 'Your appointment is confirmed',
  rescheduled: 'Your appointment has been rescheduled',
  canceled: 'Your appointment has been canceled',
  reminder: 'Reminder',
};

const LEAD: Record<NotificationKind, string> = {
  confirmation: 'Your appointment is confirmed.',
  rescheduled: 'Your appointment has been rescheduled. Its new time is below.',
  canceled: 'Your appointment below has been canceled.',
  reminder: 'This is a reminder of your upcoming appointment.',
};

/** What the link is for: a canceled appointment can no longer be changed. */
function linkText(kind: NotificationKind): string {
  return kind === 'canceled'
    ? 'See the appointment'
    : 'See your appointment, or cancel or reschedule it';
}

/**
 * The values users wrote on one line, without control or bidi characters (old rows may hold them):
 * a line break in a name must not become a line of the message ("Please pay at …") nor a header.
 */
function cleaned(facts: MessageFacts): MessageFacts {
  const lines = ['firstName', 'typeName', 'calendarName', 'location', 'accountName'] as const;
  return { ...facts, ...Object.fromEntries(lines.map((key) => [key, toSingleLine(facts[key])])) };
}

/**
 * The client's e-mail, as text and HTML: what, when (in the appointment's zone, named), with whom,
 * where, and the appointment's page. Users' values are `cleaned`, and escaped in the HTML.
 */
export function renderEmail(written: MessageFacts): EmailContent {
  const facts = cleaned(written);
  const when = describeWhen(facts.startsAt, facts.endsAt, facts.timezone);
  const series = facts.kind === 'confirmation' ? facts.series : undefined;
  const subject = series
    ? `Your appointments are confirmed: ${facts.typeName}, ${series.occurrences.length} from ${when.date} at ${when.time}`
    : `${SUBJECT[facts.kind]}: ${facts.typeName} on ${when.date} at ${when.time}`;
  const whenText = series
    ? `${cadence(series)}, ${series.occurrences.length} appointments (${when.zone}):`
    : `${when.weekday}, ${when.date}, ${when.time} – ${when.endTime} ${zoneLabel(when)}`;
  const rows: [string, string][] = [
    ['What', facts.typeName],
    ['When', whenText],
    ['With', facts.calendarName],
  ];
  if (facts.location !== '') rows.push(['Where', facts.location]);
  const greeting = facts.firstName === '' ? 'Hello,' : `Hello ${facts.firstName},`;
  const lead = series
    ? `Your ${series.occurrences.length} appointments are confirmed.`
    : LEAD[facts.kind];
  const dates = (series?.occurrences ?? []).map((o) => {
    const each = describeWhen(o.startsAt, o.endsAt, facts.timezone);
    return `${each.weekday}, ${each.date}, ${each.time} – ${each.endTime} ${each.abbreviation}`;
  });

  const text = [
    greeting,
    '',
    lead,
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(7)}${value}`),
    ...(series ? ['', ...dates.map((d) => `  ${d}`)] : []),
    '',
    `${linkText(facts.kind)}:`,
    facts.confirmationPage,
    '',
    facts.accountName,
    '',
  ].join('\n');

  const html = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"></head>',
    '<body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(lead)}</p>`,
    '<table cellpadding="4" style="border-collapse: collapse">',
    ...rows.map(
      ([label, value]) =>
        `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    ...(series ? ['<ul>', ...dates.map((d) => `<li>${escapeHtml(d)}</li>`), '</ul>'] : []),
    `<p><a href="${escapeHtml(facts.confirmationPage)}">${escapeHtml(linkText(facts.kind))}</a></p>`,
    `<p>${escapeHtml(facts.accountName)}</p>`,
    '</body></html>',
    '',
  ].join('\n');

  return { subject, text, html };
}

/** The client's SMS: one short line (the type, the time in the appointment's zone, the link). */
export function renderSms(written: MessageFacts): string {
  const facts = cleaned(written);
  const when = describeWhen(facts.startsAt, facts.endsAt, facts.timezone);
  const at = `${when.date} at ${when.time} ${when.abbreviation}`;
  const who = facts.accountName;
  const what = facts.typeName;
  switch (facts.kind) {
    case 'confirmation':
      if (facts.series) {
        const n = facts.series.occurrences.length;
        return `${who}: your ${n} ${what} appointments are confirmed, ${cadence(facts.series)} from ${at}. Dates and changes: ${facts.confirmationPage}`;
      }
      return `${who}: your ${what} is confirmed for ${at}. To cancel or reschedule: ${facts.confirmationPage}`;
    case 'rescheduled':
      return `${who}: your ${what} has been moved to ${at}. Details: ${facts.confirmationPage}`;
    case 'canceled':
      return `${who}: your ${what} on ${at} has been canceled.`;
    case 'reminder':
      return `${who}: reminder of your ${what} on ${at}. To cancel or reschedule: ${facts.confirmationPage}`;
  }
}
