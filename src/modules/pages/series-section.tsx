import { Carry, Notice } from './layout';
import { momentIn } from './formats';
import { choicePairs } from './scheduling-choices';
import type { SchedulingPageProps } from './scheduling-page';

const EVERY = { daily: 'Every day', weekly: 'Every week', monthly: 'Every month' } as const;

/** How many a "repeat" offers first: a month of weeks, or the type's most if fewer. */
const FIRST_COUNT = 4;

/**
 * The details step's "repeat" (when the type offers series): a GET of the same step with
 * `repeat` and `count`, which shows every date before the client confirms; the details form then
 * carries them and books the series, all or nothing (docs/series.md).
 */
export function RepeatSection(props: SchedulingPageProps) {
  const { model, choices } = props;
  const offered = model.recurrence;
  if (!offered) return null;
  const stay = choicePairs(
    { ...choices, repeat: undefined, prefill: { fields: new Map() } },
    { date: true, datetime: true },
  );
  return (
    <section aria-labelledby="repeat-heading" id="repeat">
      <h2 id="repeat-heading">Repeat</h2>
      <form method="get" action={`/schedule/${model.account.id}`} id="repeat-form">
        <Carry pairs={stay} />
        <div class="field">
          <label for="repeat-frequency">Repeat this appointment</label>
          <select id="repeat-frequency" name="repeat">
            <option value="">Does not repeat</option>
            {offered.frequencies.map((f) => (
              <option value={f} selected={choices.repeat?.frequency === f}>
                {EVERY[f]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="repeat-count">Number of appointments, this one included</label>
          <input
            id="repeat-count"
            name="count"
            type="number"
            min={2}
            max={offered.maxCount}
            value={choices.repeat?.count ?? Math.min(FIRST_COUNT, offered.maxCount)}
          />
        </div>
        <button type="submit">Show the dates</button>
      </form>
      <SeriesDates {...props} />
    </section>
  );
}

/** Every date of the series asked for, as the booking would check it now; refused ones said so. */
function SeriesDates({ model, errors }: SchedulingPageProps) {
  const refusedAtBooking = errors.find((e) => e.place === 'series');
  if (model.seriesProblem)
    return (
      <Notice kind="error" id="series-error">
        {model.seriesProblem}
      </Notice>
    );
  const series = model.series;
  if (!series) return null;
  const refused = series.filter((o) => !o.valid).length;
  const when = (datetime: string) =>
    /[+-]\d{4}$/.test(datetime) ? momentIn(datetime, model.zone) : datetime;
  return (
    <>
      {refusedAtBooking && (
        <Notice kind="error" id="series-error">
          {refusedAtBooking.message}
        </Notice>
      )}
      {refused > 0 && !refusedAtBooking && (
        <Notice kind="error" id="series-error">
          {refused === 1 ? 'One of these dates is' : `${refused} of these dates are`} not available.
          A series is booked whole or not at all: please choose another time, or fewer appointments.
        </Notice>
      )}
      <h3>Your {series.length} appointments</h3>
      <ol class="series" id="series-dates">
        {series.map((o) => (
          <li class={o.valid ? undefined : 'unavailable'}>
            {when(o.datetime)}
            {!o.valid && <strong> (not available)</strong>}
          </li>
        ))}
      </ol>
    </>
  );
}
