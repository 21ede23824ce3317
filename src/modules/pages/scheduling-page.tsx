import type { PageError } from './page-errors';
import { Carry, Layout, Notice } from './layout';
import { clockOf, dayOf, momentIn, monthOf, priceOf, shiftMonth, zonesWith } from './formats';
import { type Choices, choicePairs, prefillPairs, queryOf } from './scheduling-choices';
import type { SchedulingModel } from './scheduling-model';
import { DetailsForm } from './details-form';

export interface SchedulingPageProps {
  model: SchedulingModel;
  choices: Choices;
  /** The form's CSRF token (details step). */
  csrf: string;
  errors: PageError[];
}

const pathOf = (m: SchedulingModel) => `/schedule/${m.account.id}`;

export function SchedulingPage(props: SchedulingPageProps) {
  const { model, choices } = props;
  const title = `Book an appointment with ${model.account.name}`;
  return (
    <Layout title={title}>
      <h1>{title}</h1>
      {!model.type ? (
        <TypeStep {...props} />
      ) : (
        <>
          <Summary {...props} />
          {choices.datetime ? (
            <DetailsForm {...props} />
          ) : (
            <>
              <DateStep {...props} />
              {choices.date && <TimeList {...props} />}
            </>
          )}
        </>
      )}
    </Layout>
  );
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
          <div class="choice">
            <input
              type="radio"
              id={`type-${type.id}`}
              name="appointmentType"
              value={String(type.id)}
              required
              checked={i === 0}
            />
            <label for={`type-${type.id}`}>
              <strong>{type.name}</strong>{' '}
              <span class="meta">
                {type.duration} minutes · {priceOf(type.price, model.account.currency)}
              </span>
              {type.description && <span class="description">{type.description}</span>}
            </label>
          </div>
        ))}
      </fieldset>
      <button type="submit">Continue</button>
    </form>
  );
}

function Summary({ model, choices }: SchedulingPageProps) {
  const type = model.type!;
  const addons = model.addons.filter((a) => choices.addonIds.includes(a.id));
  const back = queryOf(prefillPairs(choices.prefill));
  return (
    <section class="summary" aria-label="Your choice">
      <p>
        <strong>{type.name}</strong>, {type.duration + addons.reduce((n, a) => n + a.duration, 0)}{' '}
        minutes, {priceOf(type.price, model.account.currency)}
        {addons.length > 0 && ` + ${addons.map((a) => a.name).join(', ')}`}{' '}
        {model.types.length === 0 && choices.typeIds.length === 1 && (
          <a href={`${pathOf(model)}${back}`}>Choose another appointment</a>
        )}
      </p>
      {choices.datetime && (
        <p>
          <strong>When:</strong> {momentIn(choices.datetime, model.zone)}{' '}
          <a
            href={`${pathOf(model)}${queryOf(choicePairs({ ...choices, hold: undefined }, { date: true }))}`}
          >
            Change the time
          </a>
        </p>
      )}
      {choices.hold ? (
        <p>This time is held for you for a few minutes while you fill in your details.</p>
      ) : (
        choices.datetime && (
          <p>This time is not held for you: someone else may book it before you finish.</p>
        )
      )}
    </section>
  );
}

function DateStep({ model, choices }: SchedulingPageProps) {
  const carried: [string, string][] = [
    ['appointmentType', String(model.type!.id)],
    ...prefillPairs(choices.prefill),
  ];
  const monthLink = (by: number) =>
    `${pathOf(model)}${queryOf(choicePairs({ ...choices, month: shiftMonth(model.month, by) }, { month: true }))}`;
  return (
    <form method="get" action={pathOf(model)} id="date-form">
      <Carry pairs={carried} />
      <input type="hidden" name="month" value={model.month} />
      {model.calendars.length > 1 && (
        <p>
          <label for="calendarID">With</label>
          <select id="calendarID" name="calendarID">
            <option value="">Anyone available</option>
            {model.calendars.map((c) => (
              <option value={String(c.id)} selected={c.id === choices.calendarId}>
                {c.name}
              </option>
            ))}
          </select>
        </p>
      )}
      {model.addons.length > 0 && (
        <fieldset>
          <legend>Add to your appointment</legend>
          {model.addons.map((a) => (
            <div class="choice">
              <input
                type="checkbox"
                id={`addon-${a.id}`}
                name="addonIDs"
                value={String(a.id)}
                checked={choices.addonIds.includes(a.id)}
              />
              <label for={`addon-${a.id}`}>
                {a.name}{' '}
                <span class="meta">
                  +{a.duration} minutes · {priceOf(a.price, model.account.currency)}
                </span>
              </label>
            </div>
          ))}
        </fieldset>
      )}
      <p>
        <label for="timezone">Time zone</label>
        {/* Only a zone nobody chose is the script's to guess (a form's answer has none in its URL). */}
        <select id="timezone" name="timezone" data-zone-picker={choices.timezone ? undefined : ''}>
          {zonesWith(model.zone).map((zone) => (
            <option selected={zone === model.zone}>{zone}</option>
          ))}
        </select>
      </p>
      <fieldset>
        <legend>Choose a date in {monthOf(model.month)}</legend>
        <p class="months">
          <a href={monthLink(-1)}>Previous month</a> <a href={monthLink(1)}>Next month</a>
        </p>
        {model.problem && <Notice kind="error">{model.problem}</Notice>}
        {model.dates.length === 0 && !model.problem && (
          <p>No dates are available in {monthOf(model.month)}. Try the next month.</p>
        )}
        <div class="dates">
          {model.dates.map((date) => (
            <div class="choice">
              <input
                type="radio"
                id={`date-${date}`}
                name="date"
                value={date}
                checked={date === choices.date}
              />
              <label for={`date-${date}`}>{dayOf(date)}</label>
            </div>
          ))}
        </div>
      </fieldset>
      <button type="submit">Show available times</button>
    </form>
  );
}

export function TimeList({ model, choices, csrf, errors }: SchedulingPageProps) {
  const taken = errors.find((e) => e.place === 'time');
  const times = model.times ?? [];
  return (
    <section id="times" aria-live="polite" aria-labelledby="times-heading">
      <h2 id="times-heading">
        Available times on {dayOf(choices.date!)} ({model.zone})
      </h2>
      {taken && <Notice kind="error">{taken.message}</Notice>}
      {taken?.unheld && (
        <p>
          You can still book it: it is yours if no one else books it before you finish.{' '}
          <a
            href={`${pathOf(model)}${queryOf(choicePairs({ ...choices, datetime: taken.unheld, hold: undefined }, { date: true, datetime: true }))}`}
          >
            Continue without holding {clockOf(taken.unheld)}
          </a>
        </p>
      )}
      {times.length === 0 ? (
        <p>No times are available on this date. Please choose another date.</p>
      ) : (
        // Choosing a time holds it (slot holds) while the client fills in the form: a POST.
        <form method="post" action={`${pathOf(model)}/hold`}>
          <input type="hidden" name="csrf" value={csrf} />
          <Carry
            pairs={choicePairs(
              { ...choices, datetime: undefined, hold: undefined },
              { date: true },
            )}
          />
          <fieldset>
            <legend>Choose a time</legend>
            <div class="times">
              {times.map((time, i) => (
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
          <button type="submit">Continue</button>
        </form>
      )}
    </section>
  );
}
