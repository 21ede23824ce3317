import type { AppointmentView } from '../appointments';
import { dateFieldset, escaped, timeFieldset, timesSection } from './choice-lists';
import { Layout, Notice, carried, errorNotice, pageHtml } from './layout';
import { momentIn, monthOf, priceOf, shiftMonth } from './formats';
import type { PageError } from './page-errors';

export interface ConfirmationPageProps {
  view: AppointmentView;
  start: Date;
  currency: string;
  /** `/confirmation/{token}` */
  path: string;
  csrf: string;
  links: { google: string; outlook: string };
  /** Where to book again (the scheduling page, this type, the client's details filled in). */
  bookAgain: string;
  /** What just happened (after a change: PRG). */
  done?: Done;
  errors: PageError[];
  /** The series the appointment is an occurrence of: every occurrence, by start. */
  series?: AppointmentView[];
}

export type Done = 'rescheduled' | 'canceled' | 'booked' | 'series-canceled';

const DONE: Record<Done, string> = {
  booked: 'Your appointment is booked. A confirmation is on its way to your e-mail.',
  rescheduled: 'Your appointment has been moved to the new time.',
  canceled: 'Your appointment has been canceled.',
  'series-canceled': 'The rest of your series has been canceled.',
};

/**
 * The series of the appointment: each occurrence (this one marked, canceled ones said so, each
 * linking its own page) and, while the client may still cancel one of them, a form that cancels
 * every one still to come (CancelSeriesCommand in client mode).
 */
function SeriesList(props: {
  series: AppointmentView[];
  view: AppointmentView;
  path: string;
  csrf: string;
}) {
  const { series, view } = props;
  const booked = series.length === 1 ? 'appointment' : 'appointments';
  const cancelable = series.some((o) => !o.canceled && o.canClientCancel);
  return (
    <section aria-labelledby="series-heading" id="series">
      <h2 id="series-heading">
        Your series: {series.length} {booked}
      </h2>
      <ol class="series">
        {series.map((o) => (
          <li aria-current={o.id === view.id ? 'true' : undefined}>
            {o.id === view.id ? (
              <strong>{momentIn(o.datetime, view.timezone)}</strong>
            ) : (
              <a href={new URL(o.confirmationPage).pathname}>
                {momentIn(o.datetime, view.timezone)}
              </a>
            )}
            {o.canceled && ' (canceled)'}
          </li>
        ))}
      </ol>
      {cancelable && (
        <form method="post" action={`${props.path}/cancel-series`}>
          <input type="hidden" name="csrf" value={props.csrf} />
          <button type="submit" class="danger">
            Cancel the rest of the series
          </button>
        </form>
      )}
    </section>
  );
}

export function ConfirmationPage(props: ConfirmationPageProps) {
  const { view } = props;
  const title = view.canceled ? 'Your appointment is canceled' : 'Your appointment';
  const formError = props.errors.find((e) => e.place === 'form');
  const paid = priceOf(view.priceSold, props.currency);
  return (
    <Layout title={title}>
      {props.done && <Notice kind="info">{DONE[props.done]}</Notice>}
      {formError && <Notice kind="error">{formError.message}</Notice>}
      <dl class="facts">
        <dt>What</dt>
        <dd>{view.type}</dd>
        <dt>When</dt>
        <dd>
          {momentIn(props.start, view.timezone)}
          {view.calendarTimezone !== view.timezone && (
            <>
              <br />
              {momentIn(props.start, view.calendarTimezone)} where it takes place
            </>
          )}
          <br />
          {view.duration} minutes
        </dd>
        <dt>With</dt>
        <dd>{view.calendar}</dd>
        {view.location && (
          <>
            <dt>Where</dt>
            <dd>{view.location}</dd>
          </>
        )}
        <dt>Price</dt>
        <dd>
          {paid}
          {view.certificate && ` (code ${view.certificate})`}
        </dd>
        <dt>Name</dt>
        <dd>
          {view.firstName} {view.lastName}
        </dd>
        {view.forms.flatMap((form) =>
          form.values.map((v) => (
            <>
              <dt>{v.name}</dt>
              <dd>{v.value}</dd>
            </>
          )),
        )}
      </dl>
      {props.series && (
        <SeriesList series={props.series} view={view} path={props.path} csrf={props.csrf} />
      )}
      {view.canceled ? (
        <p>
          <a href={props.bookAgain}>Book another appointment</a>
        </p>
      ) : (
        <>
          <h2>Add it to your calendar</h2>
          <ul class="links">
            <li>
              <a href={`${props.path}/appointment.ics`} download="appointment.ics">
                Download the calendar file (.ics)
              </a>
            </li>
            <li>
              <a href={props.links.google} rel="noopener noreferrer" target="_blank">
                Add to Google Calendar
              </a>
            </li>
            <li>
              <a href={props.links.outlook} rel="noopener noreferrer" target="_blank">
                Add to Outlook
              </a>
            </li>
          </ul>
          {(view.canClientReschedule || view.canClientCancel) && <h2>Change of plans?</h2>}
          {view.canClientReschedule && (
            <p>
              <a href={`${props.path}/reschedule`}>Reschedule this appointment</a>
            </p>
          )}
          {view.canClientCancel && (
            <form method="post" action={`${props.path}/cancel`}>
              <input type="hidden" name="csrf" value={props.csrf} />
              <button type="submit" class="danger">
                Cancel this appointment
              </button>
            </form>
          )}
          {!view.canClientCancel && !view.canClientReschedule && (
            <p>This appointment can no longer be changed online. Please contact us.</p>
          )}
        </>
      )}
    </Layout>
  );
}

export interface ReschedulePageProps {
  view: AppointmentView;
  path: string;
  csrf: string;
  zone: string;
  month: string;
  dates: string[];
  date?: string;
  times?: string[];
  errors: PageError[];
}

/** A new time for the appointment as HTML, from the same availability (its own slot counted free). */
export function reschedulePage(props: ReschedulePageProps): string {
  const { path, zone, month, dates } = props;
  const error = props.errors[0];
  const times = props.times ?? [];
  const monthLink = (by: number) =>
    `${path}/reschedule?${new URLSearchParams({ month: shiftMonth(month, by), timezone: zone }).toString()}`;
  let html = `<p>Now: ${escaped(momentIn(props.view.datetime, zone))}. <a href="${escaped(path)}">Keep this time</a></p>`;
  if (error) html += errorNotice(error.message);
  html += `<form method="get" action="${escaped(path)}/reschedule" id="date-form">`;
  html += carried([
    ['month', month],
    ['timezone', zone],
  ]);
  const none = dates.length === 0 ? `<p>No dates are available in ${monthOf(month)}.</p>` : '';
  html += `${dateFieldset('Choose a new date in', month, monthLink, dates, props.date, none)}</form>`;
  if (props.date) {
    let body = '<p>No times are available on this date.</p>';
    if (times.length > 0) {
      body = `<form method="post" action="${escaped(path)}/reschedule">`;
      body += carried([
        ['csrf', props.csrf],
        ['timezone', zone],
      ]);
      body += `${timeFieldset('Choose a new time', times)}<button type="submit">Move my appointment</button></form>`;
    }
    html += timesSection(props.date, zone, body);
  }
  return pageHtml(`Reschedule your ${props.view.type}`, html);
}
