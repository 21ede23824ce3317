import { DateTime } from 'luxon';
import { type Translate, messagesOf, momentIn, monthOf, priceOf } from '../../common/i18n';
import type { AppointmentView } from '../appointments';
import { escaped, monthGrid, timeFieldset, timesSection } from './choice-lists';
import { type PageLook, Notice, carried, elementsPage, errorNotice, pageHtml } from './layout';
import { shiftMonth } from './formats';
import type { PageError } from './page-errors';

export interface ConfirmationPageProps {
  view: AppointmentView;
  look: PageLook;
  start: Date;
  currency: string;
  /** `/confirmation/{token}` */
  path: string;
  csrf: string;
  links: { google: string; outlook: string };
  /** `?lang=…` when the page speaks other than the appointment's own language, for its links. */
  langQuery: string;
  /** Where to book again (the scheduling page, this type, the client's details filled in). */
  bookAgain: string;
  /** What just happened (after a change: PRG). */
  done?: Done;
  errors: PageError[];
  /** The series the appointment is an occurrence of: every occurrence, by start. */
  series?: AppointmentView[];
}

export type Done = 'rescheduled' | 'canceled' | 'booked' | 'series-canceled';

const DONE = {
  booked: 'confirm.booked',
  rescheduled: 'confirm.rescheduled',
  canceled: 'confirm.canceled',
  'series-canceled': 'confirm.seriesCanceled',
} as const satisfies Record<Done, string>;

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
  look: PageLook;
  langQuery: string;
}) {
  const { series, view, look } = props;
  const t = messagesOf(look.lang);
  const when = (o: AppointmentView) => momentIn(look.lang, o.datetime, view.timezone);
  const cancelable = series.some((o) => !o.canceled && o.canClientCancel);
  return (
    <section aria-labelledby="series-heading" id="series">
      <h2 id="series-heading">{t('confirm.series', { count: series.length })}</h2>
      <ol class="series">
        {series.map((o) => (
          <li aria-current={o.id === view.id ? 'true' : undefined}>
            {o.id === view.id ? (
              <strong>{when(o)}</strong>
            ) : (
              <a href={new URL(o.confirmationPage).pathname + props.langQuery}>{when(o)}</a>
            )}
            {o.canceled && ` ${t('confirm.canceledMark')}`}
          </li>
        ))}
      </ol>
      {cancelable && (
        <form method="post" action={`${props.path}/cancel-series`}>
          <input type="hidden" name="csrf" value={props.csrf} />
          <input type="hidden" name="lang" value={props.look.lang} />
          <button type="submit" class="danger">
            {t('confirm.cancelSeries')}
          </button>
        </form>
      )}
    </section>
  );
}

/** The appointment's page as HTML, in its look and language. */
export function confirmationPage(props: ConfirmationPageProps): string {
  const t = messagesOf(props.look.lang);
  const title = t(props.view.canceled ? 'confirm.titleCanceled' : 'confirm.title');
  return elementsPage(props.look, title, <ConfirmationBody {...props} t={t} />);
}

function ConfirmationBody(props: ConfirmationPageProps & { t: Translate }) {
  const { view, t } = props;
  const lang = props.look.lang;
  const formError = props.errors.find((e) => e.place === 'form');
  const paid = priceOf(lang, view.priceSold, props.currency);
  return (
    <>
      {props.done && <Notice kind="info">{t(DONE[props.done])}</Notice>}
      {formError && <Notice kind="error">{formError.message}</Notice>}
      <dl class="facts">
        <dt>{t('confirm.what')}</dt>
        <dd>{view.type}</dd>
        <dt>{t('confirm.when')}</dt>
        <dd>
          {momentIn(lang, props.start, view.timezone)}
          {view.calendarTimezone !== view.timezone && (
            <>
              <br />
              {t('confirm.wherePlace', {
                moment: momentIn(lang, props.start, view.calendarTimezone),
              })}
            </>
          )}
          <br />
          {t('common.minutes', { minutes: Number(view.duration) })}
        </dd>
        <dt>{t('confirm.with')}</dt>
        <dd>{view.calendar}</dd>
        {view.location && (
          <>
            <dt>{t('confirm.where')}</dt>
            <dd>{view.location}</dd>
          </>
        )}
        <dt>{t('confirm.price')}</dt>
        <dd>
          {paid}
          {view.certificate && ` ${t('confirm.code', { code: view.certificate })}`}
        </dd>
        <dt>{t('confirm.name')}</dt>
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
        <SeriesList
          series={props.series}
          view={view}
          path={props.path}
          csrf={props.csrf}
          look={props.look}
          langQuery={props.langQuery}
        />
      )}
      {view.canceled ? (
        <p>
          <a href={props.bookAgain}>{t('confirm.bookAgain')}</a>
        </p>
      ) : (
        <>
          <h2>{t('confirm.addToCalendar')}</h2>
          <ul class="links">
            <li>
              <a href={`${props.path}/appointment.ics`} download="appointment.ics">
                {t('confirm.ics')}
              </a>
            </li>
            <li>
              <a href={props.links.google} rel="noopener noreferrer" target="_blank">
                {t('confirm.google')}
              </a>
            </li>
            <li>
              <a href={props.links.outlook} rel="noopener noreferrer" target="_blank">
                {t('confirm.outlook')}
              </a>
            </li>
          </ul>
          {(view.canClientReschedule || view.canClientCancel) && (
            <h2>{t('confirm.changePlans')}</h2>
          )}
          {view.canClientReschedule && (
            <p>
              <a href={`${props.path}/reschedule${props.langQuery}`}>{t('confirm.reschedule')}</a>
            </p>
          )}
          {view.canClientCancel && (
            <form method="post" action={`${props.path}/cancel`}>
              <input type="hidden" name="csrf" value={props.csrf} />
              <input type="hidden" name="lang" value={props.look.lang} />
              <button type="submit" class="danger">
                {t('confirm.cancel')}
              </button>
            </form>
          )}
          {!view.canClientCancel && !view.canClientReschedule && <p>{t('confirm.noChanges')}</p>}
        </>
      )}
    </>
  );
}

export interface ReschedulePageProps {
  view: AppointmentView;
  look: PageLook;
  /** The account's first day of the week (the month's grid). */
  firstDay: number;
  path: string;
  csrf: string;
  zone: string;
  month: string;
  dates: string[];
  date?: string;
  times?: string[];
  errors: PageError[];
}

/**
 * A new time for the appointment as HTML, from the same availability (its own slot counted free):
 * the month's grid (a day is a link), then the day's times, and a button that moves it (a change
 * to a booking is confirmed, not made by a click on a time).
 */
export function reschedulePage(props: ReschedulePageProps): string {
  const { path, zone, month, dates } = props;
  const accepted = new URLSearchParams({
    month,
    timezone: zone,
    ...(props.date ? { date: props.date } : {}),
  });
  const look = {
    ...props.look,
    here: props.look.here === undefined ? undefined : `${path}/reschedule?${accepted.toString()}`,
  };
  const lang = look.lang;
  const t = messagesOf(lang);
  const error = props.errors[0];
  const times = props.times ?? [];
  const query = (params: Record<string, string>) => {
    // The language is kept through the steps, whichever way it was chosen.
    const all = new URLSearchParams({ ...params, lang });
    return `${path}/reschedule?${all.toString()}`;
  };
  let html = `<p>${escaped(t('reschedule.now', { moment: momentIn(lang, props.view.datetime, zone) }))} <a href="${escaped(path)}">${escaped(t('reschedule.keep'))}</a></p>`;
  if (error) html += errorNotice(error.message);
  const none =
    dates.length === 0
      ? `<p>${escaped(t('date.noDatesHere', { month: monthOf(lang, month) }))}</p>`
      : '';
  html += monthGrid({
    lang,
    month,
    firstDay: props.firstDay,
    dates,
    chosen: props.date,
    today: DateTime.now().setZone(zone).toISODate()!,
    heading: 'date.newMonth',
    dayLink: (date) => query({ month, timezone: zone, date }),
    monthLink: (by) => query({ month: shiftMonth(month, by), timezone: zone }),
    notice: none,
  });
  if (props.date) {
    let body = `<p>${escaped(t('reschedule.noTimes'))}</p>`;
    if (times.length > 0) {
      body = `<form method="post" action="${escaped(path)}/reschedule">`;
      body += carried([
        ['csrf', props.csrf],
        ['timezone', zone],
        ['lang', lang],
      ]);
      body += `${timeFieldset(lang, t('reschedule.chooseTime'), times)}<button type="submit">${escaped(t('reschedule.move'))}</button></form>`;
    }
    html += timesSection(lang, props.date, zone, body);
  }
  return pageHtml(look, t('reschedule.title', { type: props.view.type }), html);
}
