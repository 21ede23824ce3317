import type { AppointmentView } from '../appointments';
import { Carry, Layout, Notice } from './layout';
import { clockOf, dayOf, momentIn, monthOf, priceOf, shiftMonth } from './formats';
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
  done?: 'rescheduled' | 'canceled' | 'booked';
  errors: PageError[];
}

const DONE = {
  booked: 'Your appointment is booked. A confirmation is on its way to your e-mail.',
  rescheduled: 'Your appointment has been moved to the new time.',
  canceled: 'Your appointment has been canceled.',
};

export function ConfirmationPage(props: ConfirmationPageProps) {
  const { view } = props;
  const title = view.canceled ? 'Your appointment is canceled' : 'Your appointment';
  const formError = props.errors.find((e) => e.place === 'form');
  const paid = priceOf(view.priceSold, props.currency);
  return (
    <Layout title={title}>
      <h1>{title}</h1>
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

/** A new time for the appointment, from the same availability (its own slot counted free). */
export function ReschedulePage(props: ReschedulePageProps) {
  const title = `Reschedule your ${props.view.type}`;
  const error = props.errors[0];
  const monthLink = (by: number) =>
    `${props.path}/reschedule?${new URLSearchParams({ month: shiftMonth(props.month, by), timezone: props.zone }).toString()}`;
  return (
    <Layout title={title}>
      <h1>{title}</h1>
      <p>
        Now: {momentIn(props.view.datetime, props.zone)}. <a href={props.path}>Keep this time</a>
      </p>
      {error && <Notice kind="error">{error.message}</Notice>}
      <form method="get" action={`${props.path}/reschedule`} id="date-form">
        <input type="hidden" name="month" value={props.month} />
        <input type="hidden" name="timezone" value={props.zone} />
        <fieldset>
          <legend>Choose a new date in {monthOf(props.month)}</legend>
          <p class="months">
            <a href={monthLink(-1)}>Previous month</a> <a href={monthLink(1)}>Next month</a>
          </p>
          {props.dates.length === 0 && <p>No dates are available in {monthOf(props.month)}.</p>}
          <div class="dates">
            {props.dates.map((date) => (
              <div class="choice">
                <input
                  type="radio"
                  id={`date-${date}`}
                  name="date"
                  value={date}
                  checked={date === props.date}
                />
                <label for={`date-${date}`}>{dayOf(date)}</label>
              </div>
            ))}
          </div>
        </fieldset>
        <button type="submit">Show available times</button>
      </form>
      {props.date && (
        <section id="times" aria-live="polite" aria-labelledby="times-heading">
          <h2 id="times-heading">
            Available times on {dayOf(props.date)} ({props.zone})
          </h2>
          {(props.times ?? []).length === 0 ? (
            <p>No times are available on this date.</p>
          ) : (
            <form method="post" action={`${props.path}/reschedule`}>
              <input type="hidden" name="csrf" value={props.csrf} />
              <Carry pairs={[['timezone', props.zone]]} />
              <fieldset>
                <legend>Choose a new time</legend>
                <div class="times">
                  {(props.times ?? []).map((time, i) => (
                    <div class="choice">
                      <input
                        type="radio"
                        id={`time-${i}`}
                        name="datetime"
                        value={time}
                        required
                        checked={i === 0}
                      />
                      <label for={`time-${i}`}>{clockOf(time)}</label>
                    </div>
                  ))}
                </div>
              </fieldset>
              <button type="submit">Move my appointment</button>
            </form>
          )}
        </section>
      )}
    </Layout>
  );
}
