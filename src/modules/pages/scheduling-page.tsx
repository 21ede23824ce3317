import { render } from 'preact-render-to-string';
import { Choice, dateFieldset, escaped, timeFieldset, timesSection } from './choice-lists';
import type { PageError } from './page-errors';
import { Carry, Layout, Notice, carried, errorNotice, html, pageHtml } from './layout';
import { clockOf, momentIn, monthOf, priceOf, shiftMonth, zoneOptions } from './formats';
import { type Choices, choicePairs, prefillPairs, queryOf } from './scheduling-choices';
import type { SchedulingModel } from './scheduling-model';
import { DetailsForm } from './details-form';
import { RepeatSection } from './series-section';

export interface SchedulingPageProps {
  model: SchedulingModel;
  choices: Choices;
  /** The form's CSRF token (details step). */
  csrf: string;
  errors: PageError[];
}

const pathOf = (m: SchedulingModel) => `/schedule/${m.account.id}`;

/** The scheduling page at the step the choices have reached, as HTML. */
export function schedulingPage(props: SchedulingPageProps): string {
  const { model, choices } = props;
  const title = `Book an appointment with ${model.account.name}`;
  if (!model.type)
    return html(
      <Layout title={title}>
        <TypeStep {...props} />
      </Layout>,
    );
  if (choices.datetime)
    return pageHtml(
      title,
      summary(props) + render(<RepeatSection {...props} />) + render(<DetailsForm {...props} />),
    );
  const times = choices.date ? timeList(props) : '';
  return pageHtml(title, summary(props) + dateStep(props) + times);
}

function TypeStep({ model, choices }: SchedulingPageProps) {
  if (model.types.length === 0)
    return <Notice kind="info">No appointments can be booked here at the moment.</Notice>;
  return (
    <form method="get" action={pathOf(model)}>
      <Carry pairs={prefillPairs(choices.prefill)} />
      <fieldset>
        <legend>Choose an appointment</legend>
        {model.types.map((type, i) => (
          <Choice
            id={`type-${type.id}`}
            name="appointmentType"
            value={String(type.id)}
            required
            checked={i === 0}
          >
            <strong>{type.name}</strong>{' '}
            <span class="meta">
              {type.duration} minutes · {priceOf(type.price, model.account.currency)}
            </span>
            {type.description && <span class="description">{type.description}</span>}
          </Choice>
        ))}
      </fieldset>
      <button type="submit">Continue</button>
    </form>
  );
}

/** What the client has chosen, as HTML (the date and details steps). */
export function summary({ model, choices }: SchedulingPageProps): string {
  const type = model.type!;
  const path = pathOf(model);
  const addons = model.addons.filter((a) => choices.addonIds.includes(a.id));
  const minutes = type.duration + addons.reduce((n, a) => n + a.duration, 0);
  const price = priceOf(type.price, model.account.currency);
  let html = `<section class="summary" aria-label="Your choice"><p><strong>${escaped(type.name)}</strong>, ${minutes} minutes, ${escaped(price)}`;
  if (addons.length > 0) html += escaped(` + ${addons.map((a) => a.name).join(', ')}`);
  html += ' ';
  if (model.types.length === 0 && choices.typeIds.length === 1) {
    const back = queryOf(prefillPairs(choices.prefill));
    html += `<a href="${escaped(path + back)}">Choose another appointment</a>`;
  }
  html += '</p>';
  if (choices.datetime) {
    const change = queryOf(choicePairs({ ...choices, hold: undefined }, { date: true }));
    html += `<p><strong>When:</strong> ${escaped(momentIn(choices.datetime, model.zone))} <a href="${escaped(path + change)}">Change the time</a></p>`;
  }
  if (choices.hold)
    html += '<p>This time is held for you for a few minutes while you fill in your details.</p>';
  else if (choices.datetime)
    html += '<p>This time is not held for you: someone else may book it before you finish.</p>';
  return `${html}</section>`;
}

/** The date step as HTML (most of what a client loads: written as text, not through preact). */
export function dateStep({ model, choices }: SchedulingPageProps): string {
  const path = pathOf(model);
  const monthLink = (by: number) =>
    `${path}${queryOf(choicePairs({ ...choices, month: shiftMonth(model.month, by) }, { month: true }))}`;
  let html = `<form method="get" action="${path}" id="date-form">`;
  html += carried([['appointmentType', String(model.type!.id)], ...prefillPairs(choices.prefill)]);
  html += `<input type="hidden" name="month" value="${escaped(model.month)}"/>`;
  if (model.calendars.length > 1) {
    html += `<p><label for="calendarID">With</label><select id="calendarID" name="calendarID"><option value>Anyone available</option>`;
    for (const c of model.calendars)
      html += `<option value="${c.id}"${c.id === choices.calendarId ? ' selected' : ''}>${escaped(c.name)}</option>`;
    html += '</select></p>';
  }
  if (model.addons.length > 0) {
    html += '<fieldset><legend>Add to your appointment</legend>';
    for (const a of model.addons) {
      const price = priceOf(a.price, model.account.currency);
      html += `<div class="choice"><input type="checkbox" id="addon-${a.id}" name="addonIDs" value="${a.id}"${choices.addonIds.includes(a.id) ? ' checked' : ''}/><label for="addon-${a.id}">${escaped(a.name)} <span class="meta">+${a.duration} minutes · ${escaped(price)}</span></label></div>`;
    }
    html += '</fieldset>';
  }
  // Only a zone nobody chose is the script's to guess (a form's answer has none in its URL).
  const picker = choices.timezone ? '' : ' data-zone-picker';
  html += `<p><label for="timezone">Time zone</label><select id="timezone" name="timezone"${picker}>${zoneOptions(model.zone)}</select></p>`;
  let notice = '';
  if (model.problem) notice = errorNotice(model.problem);
  else if (model.dates.length === 0)
    notice = `<p>No dates are available in ${monthOf(model.month)}. Try the next month.</p>`;
  html += dateFieldset(
    'Choose a date in',
    model.month,
    monthLink,
    model.dates,
    choices.date,
    notice,
  );
  return `${html}</form>`;
}

/** A date's times as HTML: the section the page's script replaces when another date is chosen. */
export function timeList({ model, choices, csrf, errors }: SchedulingPageProps): string {
  const taken = errors.find((e) => e.place === 'time');
  const times = model.times ?? [];
  const path = pathOf(model);
  let html = '';
  if (taken) html += errorNotice(taken.message);
  if (taken?.unheld) {
    const unheld = { ...choices, datetime: taken.unheld, hold: undefined };
    const link = `${path}${queryOf(choicePairs(unheld, { date: true, datetime: true }))}`;
    html += `<p>You can still book it: it is yours if no one else books it before you finish. <a href="${escaped(link)}">Continue without holding ${clockOf(taken.unheld)}</a></p>`;
  }
  if (times.length === 0)
    html += '<p>No times are available on this date. Please choose another date.</p>';
  else {
    // Choosing a time holds it (slot holds) while the client fills in the form: a POST.
    const list = { ...choices, datetime: undefined, hold: undefined };
    html += `<form method="post" action="${path}/hold"><input type="hidden" name="csrf" value="${escaped(csrf)}"/>${carried(choicePairs(list, { date: true }))}`;
    html += `${timeFieldset('Choose a time', times)}<button type="submit">Continue</button></form>`;
  }
  return timesSection(choices.date!, model.zone, html);
}
