import { DateTime } from 'luxon';
import { escapeHtml } from '../../common/html/escape-html';
import type { Language } from '../../common/i18n/languages';
import { toSingleLine } from '../../common/http/text-rules';
import {
  type Translate,
  clockAt,
  dateOf,
  dayOf,
  messagesOf,
  weekdaysOf,
  zoneNameAt,
} from '../../common/i18n';
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

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** The appointment's time as messages write it, in its own zone and the message's language. */
export interface When {
  /** `June 3, 2030`, `3 de junio de 2030` */
  date: string;
  /** `Monday, June 3, 2030`, `lunes, 3 de junio de 2030` */
  day: string;
  /** `Monday`, `lunes` */
  weekday: string;
  /** `2:30pm`, `14:30` */
  time: string;
  endTime: string;
  /** `EDT`, or `GMT+2` where the language has no abbreviation for the zone. */
  abbreviation: string;
  /** `America/New_York` */
  zone: string;
}

export function describeWhen(
  startsAt: Date,
  endsAt: Date,
  zone: string,
  language: Language = 'en',
): When {
  const start = DateTime.fromJSDate(startsAt, { zone });
  const end = DateTime.fromJSDate(endsAt, { zone });
  const date = start.toISODate()!;
  return {
    date: dateOf(language, date),
    day: dayOf(language, date),
    weekday: weekdaysOf(language)[start.weekday % 7].long,
    time: clockAt(language, start.hour, start.minute),
    endTime: clockAt(language, end.hour, end.minute),
    abbreviation: zoneNameAt(language, startsAt, zone),
    zone: start.zoneName ?? zone,
  };
}

/** `EDT (America/New_York)`; just `UTC` when the two say the same. */
function zoneLabel(when: When): string {
  return when.abbreviation === when.zone ? when.zone : `${when.abbreviation} (${when.zone})`;
}

/**
 * The values users wrote on one line, without control or bidi characters (old rows may hold them):
 * a line break in a name must not become a line of the message ("Please pay at …") nor a header.
 */
function cleaned(facts: MessageFacts): MessageFacts {
  const lines = ['firstName', 'typeName', 'calendarName', 'location', 'accountName'] as const;
  return { ...facts, ...Object.fromEntries(lines.map((key) => [key, toSingleLine(facts[key])])) };
}

/** `every week`, `cada 2 semanas`. */
const cadence = (t: Translate, series: SeriesListing) =>
  t('email.cadence', { frequency: series.frequency, interval: series.interval });

/**
 * The client's e-mail, as text and HTML, in its language (the one the client booked in, else the
 * account's): what, when (in the appointment's zone, named), with whom, where, and the
 * appointment's page. Users' values are `cleaned`, and escaped in the HTML; they are shown as the
 * business wrote them, never translated.
 */
export function renderEmail(written: MessageFacts): EmailContent {
  const facts = cleaned(written);
  const t = messagesOf(facts.language);
  const when = describeWhen(facts.startsAt, facts.endsAt, facts.timezone, facts.language);
  const series = facts.kind === 'confirmation' ? facts.series : undefined;
  const at = { type: facts.typeName, date: when.date, time: when.time };
  const subject = series
    ? t('email.subject.series', { ...at, count: series.occurrences.length })
    : t(`email.subject.${facts.kind}`, at);
  const whenText = series
    ? t('email.seriesWhen', {
        cadence: cadence(t, series),
        count: series.occurrences.length,
        zone: when.zone,
      })
    : `${when.day}, ${when.time} – ${when.endTime} ${zoneLabel(when)}`;
  const labels = {
    what: t('email.what'),
    when: t('email.when'),
    with: t('email.with'),
    where: t('email.where'),
  };
  const rows: [string, string][] = [
    [labels.what, facts.typeName],
    [labels.when, whenText],
    [labels.with, facts.calendarName],
  ];
  if (facts.location !== '') rows.push([labels.where, facts.location]);
  // The values line up after the longest label, "Where" or not (as in English: "Where: ").
  const width = Math.max(...Object.values(labels).map((l) => l.length)) + 2;
  const greeting =
    facts.firstName === '' ? t('email.hello') : t('email.helloName', { name: facts.firstName });
  const lead = series
    ? t('email.lead.series', { count: series.occurrences.length })
    : t(`email.lead.${facts.kind}`);
  const dates = (series?.occurrences ?? []).map((o) => {
    const each = describeWhen(o.startsAt, o.endsAt, facts.timezone, facts.language);
    return `${each.day}, ${each.time} – ${each.endTime} ${each.abbreviation}`;
  });
  const link = t(facts.kind === 'canceled' ? 'email.linkCanceled' : 'email.link');

  const text = [
    greeting,
    '',
    lead,
    '',
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    ...(series ? ['', ...dates.map((d) => `  ${d}`)] : []),
    '',
    `${link}:`,
    facts.confirmationPage,
    '',
    facts.accountName,
    '',
  ].join('\n');

  const html = [
    '<!DOCTYPE html>',
    `<html lang="${facts.language}"><head><meta charset="utf-8"></head>`,
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
    `<p><a href="${escapeHtml(facts.confirmationPage)}">${escapeHtml(link)}</a></p>`,
    `<p>${escapeHtml(facts.accountName)}</p>`,
    '</body></html>',
    '',
  ].join('\n');

  return { subject, text, html };
}

/** The client's SMS in its language: one short line (the type, the time in the appointment's zone, the link). */
export function renderSms(written: MessageFacts): string {
  const facts = cleaned(written);
  const t = messagesOf(facts.language);
  const when = describeWhen(facts.startsAt, facts.endsAt, facts.timezone, facts.language);
  const at = t('sms.at', { date: when.date, time: when.time, zone: when.abbreviation });
  const values = {
    account: facts.accountName,
    type: facts.typeName,
    at,
    link: facts.confirmationPage,
  };
  if (facts.kind === 'confirmation' && facts.series)
    return t('sms.series', {
      ...values,
      count: facts.series.occurrences.length,
      cadence: cadence(t, facts.series),
    });
  return t(`sms.${facts.kind}`, values);
}
