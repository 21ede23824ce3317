import { messagesOf, momentIn } from '../../common/i18n';
import { Carry, Notice } from './layout';
import { choicePairs } from './scheduling-choices';
import type { SchedulingPageProps } from './scheduling-page';

/** How many a "repeat" offers first: a month of weeks, or the type's most if fewer. */
const FIRST_COUNT = 4;

/**
 * The details step's "repeat" (when the type offers series): a GET of the same step with
 * `repeat` and `count`, which shows every date before the client confirms; the details form then
 * carries them and books the series, all or nothing (docs/series.md).
 */
export function RepeatSection(props: SchedulingPageProps) {
  const { model, choices, look } = props;
  const t = messagesOf(look.lang);
  const offered = model.recurrence;
  if (!offered) return null;
  const stay = choicePairs(
    { ...choices, repeat: undefined, prefill: { fields: new Map() } },
    { date: true, datetime: true },
  );
  return (
    <section aria-labelledby="repeat-heading" id="repeat">
      <h2 id="repeat-heading">{t('repeat.heading')}</h2>
      <form method="get" action={`/schedule/${model.account.id}`} id="repeat-form">
        <Carry pairs={stay} />
        <div class="field">
          <label for="repeat-frequency">{t('repeat.label')}</label>
          <select id="repeat-frequency" name="repeat">
            <option value="">{t('repeat.none')}</option>
            {offered.frequencies.map((f) => (
              <option value={f} selected={choices.repeat?.frequency === f}>
                {t(`repeat.${f}`)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="repeat-count">{t('repeat.count')}</label>
          <input
            id="repeat-count"
            name="count"
            type="number"
            min={2}
            max={offered.maxCount}
            value={choices.repeat?.count ?? Math.min(FIRST_COUNT, offered.maxCount)}
          />
        </div>
        <button type="submit">{t('repeat.show')}</button>
      </form>
      <SeriesDates {...props} />
    </section>
  );
}

/** Every date of the series asked for, as the booking would check it now; refused ones said so. */
function SeriesDates({ model, errors, look }: SchedulingPageProps) {
  const t = messagesOf(look.lang);
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
    /[+-]\d{4}$/.test(datetime) ? momentIn(look.lang, datetime, model.zone) : datetime;
  return (
    <>
      {refusedAtBooking && (
        <Notice kind="error" id="series-error">
          {refusedAtBooking.message}
        </Notice>
      )}
      {refused > 0 && !refusedAtBooking && (
        <Notice kind="error" id="series-error">
          {t('repeat.refused', { count: refused })}
        </Notice>
      )}
      <h3>{t('repeat.yours', { count: series.length })}</h3>
      <ol class="series" id="series-dates">
        {series.map((o) => (
          <li class={o.valid ? undefined : 'unavailable'}>
            {when(o.datetime)}
            {!o.valid && <strong> {t('repeat.unavailable')}</strong>}
          </li>
        ))}
      </ol>
    </>
  );
}
