import { render } from 'preact-render-to-string';
import { DateTime } from 'luxon';
import { clockOf, messagesOf, momentIn, monthOf, priceOf } from '../../common/i18n';
import { escaped, monthGrid, timeButtons, timesSection } from './choice-lists';
import type { PageError } from './page-errors';
import { type PageLook, carried, errorNotice, pageHtml } from './layout';
import { shiftMonth, zoneOptions } from './formats';
import { type Choices, choicePairs, prefillPairs, queryOf } from './scheduling-choices';
import type { SchedulingModel } from './scheduling-model';
import { DetailsForm } from './details-form';
import { RepeatSection } from './series-section';

export interface SchedulingPageProps {
  model: SchedulingModel;
  choices: Choices;
  /** Its language, the account's colour and logo. */
  look: PageLook;
  /** The form's CSRF token (details step). */
  csrf: string;
  errors: PageError[];
}

const pathOf = (m: SchedulingModel) => `/schedule/${m.account.id}`;

/** The scheduling page at the step the choices have reached, as HTML. */
export function schedulingPage(props: SchedulingPageProps): string {
  const { model, choices, look } = props;
  const title = messagesOf(look.lang)('schedule.title', { account: model.account.name });
  if (!model.type) return pageHtml(look, title, typeStep(props));
  if (choices.datetime)
    return pageHtml(
      look,
      title,
      summary(props) + render(<RepeatSection {...props} />) + render(<DetailsForm {...props} />),
    );
  const times = choices.date ? timeList(props) : '';
  return pageHtml(look, title, summary(props) + dateStep(props) + times);
}

/** The types to choose from, each one link (to its date step). */
function typeStep({ model, choices, look }: SchedulingPageProps): string {
  const t = messagesOf(look.lang);
  if (model.types.length === 0)
    return `<p class="notice info" role="status">${escaped(t('schedule.noTypes'))}</p>`;
  const carry = prefillPairs(choices.prefill);
  if (choices.timezone) carry.unshift(['timezone', choices.timezone]);
  if (choices.lang) carry.unshift(['lang', choices.lang]);
  let html = `<section aria-labelledby="types-heading"><h2 id="types-heading">${escaped(t('schedule.chooseType'))}</h2><ul class="types">`;
  for (const type of model.types) {
    const href = pathOf(model) + queryOf([['appointmentType', String(type.id)], ...carry]);
    const meta = `${t('common.minutes', { minutes: type.duration })} · ${priceOf(look.lang, type.price, model.account.currency)}`;
    html += `<li><a href="${escaped(href)}"><strong>${escaped(type.name)}</strong> <span class="meta">${escaped(meta)}</span></a>`;
    if (type.description) html += `<span class="description">${escaped(type.description)}</span>`;
    html += '</li>';
  }
  return `${html}</ul></section>`;
}

/** What the client has chosen, as HTML (the date and details steps). */
export function summary({ model, choices, look }: SchedulingPageProps): string {
  const t = messagesOf(look.lang);
  const type = model.type!;
  const path = pathOf(model);
  const addons = model.addons.filter((a) => choices.addonIds.includes(a.id));
  const minutes = type.duration + addons.reduce((n, a) => n + a.duration, 0);
  const price = priceOf(look.lang, type.price, model.account.currency);
  let html = `<section class="summary" aria-label="${escaped(t('schedule.yourChoice'))}"><p><strong>${escaped(type.name)}</strong>, ${escaped(t('common.minutes', { minutes }))}, ${escaped(price)}`;
  if (addons.length > 0) html += escaped(` + ${addons.map((a) => a.name).join(', ')}`);
  html += ' ';
  if (model.types.length === 0 && choices.typeIds.length === 1) {
    const back = queryOf([
      ...(choices.lang ? [['lang', choices.lang] as [string, string]] : []),
      ...prefillPairs(choices.prefill),
    ]);
    html += `<a href="${escaped(path + back)}">${escaped(t('schedule.anotherType'))}</a>`;
  }
  html += '</p>';
  if (choices.datetime) {
    const change = queryOf(choicePairs({ ...choices, hold: undefined }, { date: true }));
    html += `<p><strong>${escaped(t('schedule.when'))}</strong> ${escaped(momentIn(look.lang, choices.datetime, model.zone))} <a href="${escaped(path + change)}">${escaped(t('schedule.changeTime'))}</a></p>`;
  }
  if (choices.hold) html += `<p>${escaped(t('schedule.held'))}</p>`;
  else if (choices.datetime) html += `<p>${escaped(t('schedule.notHeld'))}</p>`;
  return `${html}</section>`;
}

/**
 * The date step as HTML (most of what a client loads: written as text, not through preact): the
 * calendar to book with (one link each), the addons and zone (a form), and the month's grid.
 */
export function dateStep(props: SchedulingPageProps): string {
  const { model, choices, look } = props;
  const t = messagesOf(look.lang);
  const path = pathOf(model);
  const month = model.month;
  const link = (c: Choices, upTo: { month?: boolean; date?: boolean }) =>
    `${path}${queryOf(choicePairs(c, upTo))}`;
  let html = '';
  if (model.calendars.length > 1) {
    html += `<section class="calendars" aria-labelledby="with-heading"><h2 id="with-heading">${escaped(t('date.with'))}</h2><ul class="pills">`;
    const pill = (id: number | undefined, name: string) => {
      const href = link({ ...choices, calendarId: id, date: undefined, month }, { month: true });
      const current = id === choices.calendarId ? ' aria-current="true"' : '';
      return `<li><a href="${escaped(href)}"${current}>${escaped(name)}</a></li>`;
    };
    html += pill(undefined, t('date.anyone'));
    for (const c of model.calendars) html += pill(c.id, c.name);
    html += '</ul></section>';
  }
  html += `<form method="get" action="${path}" id="options-form" class="options" aria-label="${escaped(t('date.options'))}">`;
  const kept: [string, string][] = [['appointmentType', String(model.type!.id)]];
  if (choices.calendarId !== undefined) kept.push(['calendarID', String(choices.calendarId)]);
  if (choices.lang) kept.push(['lang', choices.lang]);
  html += carried([...kept, ['month', month], ...prefillPairs(choices.prefill)]);
  if (model.addons.length > 0) {
    html += `<fieldset><legend>${escaped(t('date.addons'))}</legend>`;
    for (const a of model.addons) {
      const meta = t('date.addonMeta', {
        minutes: a.duration,
        price: priceOf(look.lang, a.price, model.account.currency),
      });
      html += `<div class="choice"><input type="checkbox" id="addon-${a.id}" name="addonIDs" value="${a.id}"${choices.addonIds.includes(a.id) ? ' checked' : ''}/><label for="addon-${a.id}">${escaped(a.name)} <span class="meta">${escaped(meta)}</span></label></div>`;
    }
    html += '</fieldset>';
  }
  // Only a zone nobody chose is the script's to guess (a form's answer has none in its URL).
  const picker = choices.timezone ? '' : ' data-zone-picker';
  html += `<p><label for="timezone">${escaped(t('date.timezone'))}</label><select id="timezone" name="timezone"${picker}>${zoneOptions(model.zone)}</select></p>`;
  html += `<button type="submit" class="secondary">${escaped(t('date.update'))}</button></form>`;
  let notice = '';
  if (model.problem) notice = errorNotice(model.problem);
  else if (model.dates.length === 0)
    notice = `<p>${escaped(t('date.noDates', { month: monthOf(look.lang, month) }))}</p>`;
  const base = { ...choices, month, date: undefined };
  return (
    html +
    monthGrid({
      lang: look.lang,
      month,
      firstDay: model.account.firstDayOfWeek,
      dates: model.dates,
      chosen: choices.date,
      today: DateTime.now().setZone(model.zone).toISODate()!,
      heading: 'date.month',
      dayLink: (date) => link({ ...base, date }, { month: true, date: true }),
      monthLink: (by) => link({ ...base, month: shiftMonth(month, by) }, { month: true }),
      notice,
    })
  );
}

/** A date's times as HTML: the section the page's script replaces when another date is chosen. */
export function timeList({ model, choices, look, csrf, errors }: SchedulingPageProps): string {
  const t = messagesOf(look.lang);
  const taken = errors.find((e) => e.place === 'time');
  const times = model.times ?? [];
  const path = pathOf(model);
  let html = '';
  if (taken) html += errorNotice(taken.message);
  if (taken?.unheld) {
    const unheld = { ...choices, datetime: taken.unheld, hold: undefined };
    const link = `${path}${queryOf(choicePairs(unheld, { date: true, datetime: true }))}`;
    html += `<p>${escaped(t('times.stillBook'))} <a href="${escaped(link)}">${escaped(t('times.withoutHold', { time: clockOf(look.lang, taken.unheld) }))}</a></p>`;
  }
  if (times.length === 0) html += `<p>${escaped(t('times.none'))}</p>`;
  else {
    // Choosing a time holds it (slot holds) while the client fills in the form: a POST, sent by
    // the time's own button.
    const list = { ...choices, datetime: undefined, hold: undefined };
    html += `<form method="post" action="${path}/hold"><input type="hidden" name="csrf" value="${escaped(csrf)}"/>${carried(choicePairs(list, { date: true }))}`;
    html += `${timeButtons(look.lang, times)}</form>`;
  }
  return timesSection(look.lang, choices.date!, model.zone, html);
}
