import type { ComponentChildren } from 'preact';
import { clockOf, dayOf, monthOf } from './formats';

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

/** A plain-text choice of a long list (dates, times): what `<Choice>` writes of it. */
export interface PlainChoice {
  id: string;
  value: string;
  label: string;
  checked: boolean;
}

const ENTITIES: Record<string, string> = { '"': '&quot;', '&': '&amp;', '<': '&lt;' };
/** Text or an attribute value escaped as preact escapes it (`"`, `&`, `<`); most have none. */
export const escaped = (text: string) =>
  /["&<]/.test(text) ? text.replace(/["&<]/g, (c) => ENTITIES[c]) : text;

/**
 * Radio buttons of plain-text labels as HTML, byte for byte what a list of `<Choice>` renders: a
 * month's dates and a day's times are most of a page's elements, and a string is written in a
 * fraction of preact's time for them.
 */
export function plainChoices(name: string, choices: PlainChoice[], required = false): string {
  const req = required ? ' required' : '';
  let html = '';
  for (const { id, value, label, checked } of choices) {
    const i = escaped(id);
    html += `<div class="choice"><input type="radio" id="${i}" name="${escaped(name)}" value="${escaped(value)}"${req}${checked ? ' checked' : ''}/><label for="${i}">${escaped(label)}</label></div>`;
  }
  return html;
}

/**
 * A month's available dates as HTML (scheduling and rescheduling alike), with links to the months
 * around it (`monthLink`, escaped here); `notice` says why there are none.
 */
export function dateFieldset(
  legend: string,
  month: string,
  monthLink: (by: number) => string,
  dates: string[],
  chosen: string | undefined,
  notice: string,
): string {
  const choices = dates.map((date) => ({
    id: `date-${date}`,
    value: date,
    label: dayOf(date),
    checked: date === chosen,
  }));
  let html = `<fieldset><legend>${legend} ${monthOf(month)}</legend><p class="months">`;
  html += `<a href="${escaped(monthLink(-1))}">Previous month</a> <a href="${escaped(monthLink(1))}">Next month</a></p>`;
  html += `${notice}<div class="dates">${plainChoices('date', choices)}</div></fieldset>`;
  return `${html}<button type="submit">Show available times</button>`;
}

/** A date's times as HTML: the section the page's script replaces when another date is chosen. */
export const timesSection = (date: string, zone: string, body: string) =>
  `<section id="times" aria-live="polite" aria-labelledby="times-heading"><h2 id="times-heading">Available times on ${escaped(dayOf(date))} (${escaped(zone)})</h2>${body}</section>`;

/** The times to choose from as HTML, the first one checked. */
export function timeFieldset(legend: string, times: string[]): string {
  const choices = times.map((time, i) => ({
    id: `time-${i}`,
    value: time,
    label: clockOf(time),
    checked: i === 0,
  }));
  return `<fieldset><legend>${legend}</legend><div class="times">${plainChoices('datetime', choices, true)}</div></fieldset>`;
}
