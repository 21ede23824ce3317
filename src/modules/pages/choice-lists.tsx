import type { ComponentChildren } from 'preact';
import { type Language, clockOf, dayOf, messagesOf, monthOf, weekdaysOf } from '../../common/i18n';

/** A radio button or checkbox with its label (the pages' lists of choices are made of these). */
export function Choice(props: {
  type?: 'radio' | 'checkbox';
  id: string;
  name: string;
  value: string;
  required?: boolean;
  checked: boolean;
  children: ComponentChildren;
}) {
  const { type = 'radio', id, name, value, required, checked } = props;
  return (
    <div class="choice">
      <input type={type} id={id} name={name} value={value} required={required} checked={checked} />
      <label for={id}>{props.children}</label>
    </div>
  );
}

const ENTITIES: Record<string, string> = { '"': '&quot;', '&': '&amp;', '<': '&lt;' };
/** Text or an attribute value escaped as preact escapes it (`"`, `&`, `<`); most have none. */
export const escaped = (text: string) =>
  /["&<]/.test(text) ? text.replace(/["&<]/g, (c) => ENTITIES[c]) : text;

/** What a month's grid shows: its days, which have times, which is today and which is chosen. */
export interface MonthGrid {
  lang: Language;
  /** `YYYY-MM` */
  month: string;
  /** The account's first day of the week: 0 Sunday … 6 Saturday. */
  firstDay: number;
  /** The month's days with times (`YYYY-MM-DD`): links. The others are shown, inert. */
  dates: string[];
  chosen?: string;
  /** Today in the zone the page is shown in. */
  today: string;
  /** The heading: `Choose a date in {month}`, or a new date (rescheduling). */
  heading: 'date.month' | 'date.newMonth';
  /** The link of a day with times (escaped here). */
  dayLink: (date: string) => string;
  /** The link of the month before (-1) or after (1) (escaped here). */
  monthLink: (by: number) => string;
  /** Why no day has times, as HTML (or ''). */
  notice: string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * A month as a calendar people recognise: weeks as rows from the account's first day of the week,
 * the weekdays' names over them, each day with times a link to its times (no script needed), the
 * others shown but inert, today and the chosen day marked (`aria-current`), every day named by its
 * full date, and links to the months around it. Written as text: it is most of a date step.
 */
export function monthGrid(grid: MonthGrid): string {
  const { lang, month, firstDay, chosen, today } = grid;
  const t = messagesOf(lang);
  const offered = new Set(grid.dates);
  const year = Number(month.slice(0, 4));
  const index = Number(month.slice(5, 7));
  const days = new Date(Date.UTC(year, index, 0)).getUTCDate();
  const lead = (new Date(Date.UTC(year, index - 1, 1)).getUTCDay() - firstDay + 7) % 7;
  const weekdays = weekdaysOf(lang);
  let html = `<section class="calendar" aria-labelledby="month-heading"><div class="month-nav">`;
  html += `<a href="${escaped(grid.monthLink(-1))}" rel="prev">${escaped(t('date.previousMonth'))}</a>`;
  html += `<h2 id="month-heading">${escaped(t(grid.heading, { month: monthOf(lang, month) }))}</h2>`;
  html += `<a href="${escaped(grid.monthLink(1))}" rel="next">${escaped(t('date.nextMonth'))}</a></div>`;
  html += `${grid.notice}<table class="month" id="month" aria-labelledby="month-heading"><thead><tr>`;
  for (let i = 0; i < 7; i++) {
    const { long, short } = weekdays[(firstDay + i) % 7];
    html += `<th scope="col"><abbr title="${escaped(long)}">${escaped(short)}</abbr></th>`;
  }
  html += '</tr></thead><tbody><tr>';
  for (let i = 0; i < lead; i++) html += '<td></td>';
  for (let day = 1; day <= days; day++) {
    const date = `${month}-${pad2(day)}`;
    if (day > 1 && (lead + day - 1) % 7 === 0) html += '</tr><tr>';
    const name = escaped(dayOf(lang, date));
    const current =
      date === chosen ? ' aria-current="true"' : date === today ? ' aria-current="date"' : '';
    const marks = `${date === chosen ? ' chosen' : ''}${date === today ? ' today' : ''}`;
    html += offered.has(date)
      ? `<td><a class="day${marks}" href="${escaped(grid.dayLink(date))}" aria-label="${name}"${current}>${day}</a></td>`
      : `<td><span class="day off${marks}"${current}><span class="vh">${name}</span><span aria-hidden="true">${day}</span></span></td>`;
  }
  const trail = (7 - ((lead + days) % 7)) % 7;
  for (let i = 0; i < trail; i++) html += '<td></td>';
  return `${html}</tr></tbody></table></section>`;
}

/** A date's times as HTML: the section the page's script replaces when another date is chosen. */
export const timesSection = (lang: Language, date: string, zone: string, body: string) =>
  `<section id="times" aria-live="polite" aria-labelledby="times-heading"><h2 id="times-heading">${escaped(messagesOf(lang)('times.heading', { date: dayOf(lang, date), zone }))}</h2>${body}</section>`;

/**
 * The times as submit buttons of the form they are in, each named by its time and sending it
 * (`datetime`): one click chooses and sends.
 */
export function timeButtons(lang: Language, times: string[]): string {
  let html = `<fieldset><legend>${escaped(messagesOf(lang)('times.choose'))}</legend><div class="times">`;
  for (const time of times)
    html += `<button type="submit" name="datetime" value="${escaped(time)}">${escaped(clockOf(lang, time))}</button>`;
  return `${html}</div></fieldset>`;
}

/** The times as radio buttons, the first one checked (a choice confirmed by the form's button). */
export function timeFieldset(lang: Language, legend: string, times: string[]): string {
  let html = `<fieldset><legend>${escaped(legend)}</legend><div class="times">`;
  times.forEach((time, i) => {
    const id = `time-${i}`;
    html += `<div class="choice"><input type="radio" id="${id}" name="datetime" value="${escaped(time)}" required${i === 0 ? ' checked' : ''}/><label for="${id}">${escaped(clockOf(lang, time))}</label></div>`;
  });
  return `${html}</div></fieldset>`;
}
