import type { ComponentChildren } from 'preact';
import { type Translate, messagesOf } from '../../common/i18n';
import { Carry, Notice } from './layout';
import type { PageError } from './page-errors';
import { choicePairs } from './scheduling-choices';
import type { SchedulingPageProps } from './scheduling-page';

type Field = SchedulingPageProps['model']['forms'][number]['fields'][number];

/** The error of a control, and the attributes that tie the control to it. */
function errorOf(errors: PageError[], place: string) {
  const error = errors.find((e) => e.place === place);
  const id = `${place.replace(':', '-')}-error`;
  return {
    error,
    id,
    attrs: error ? { 'aria-invalid': 'true' as const, 'aria-describedby': id } : {},
  };
}

function FieldError(props: { error?: PageError; id: string }) {
  return props.error ? (
    <p class="field-error" id={props.id}>
      {props.error.message}
    </p>
  ) : null;
}

function Labelled(props: {
  id: string;
  label: string;
  required?: boolean;
  t: Translate;
  children: ComponentChildren;
}) {
  return (
    <div class="field">
      <label for={props.id}>
        {props.label}
        {props.required && <span class="required"> {props.t('common.required')}</span>}
      </label>
      {props.children}
    </div>
  );
}

/** The client's details, the type's questions, a code, SMS permission; posted to book. */
export function DetailsForm({ model, choices, look, csrf, errors }: SchedulingPageProps) {
  const t = messagesOf(look.lang);
  const p = choices.prefill;
  const formErrors = errors.filter((e) => e.place === 'form');
  // A refused series is said with its dates (RepeatSection), not as a fault of this form.
  const fieldErrors = errors.filter((e) => e.place !== 'series');
  const series = choices.repeat && model.recurrence ? model.series : undefined;
  const detail = (name: 'firstName' | 'lastName' | 'email' | 'phone', label: string) => {
    const { error, id, attrs } = errorOf(errors, name);
    const required = name !== 'phone' || model.account.requirePhone;
    const type = name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text';
    const autocomplete = {
      firstName: 'given-name',
      lastName: 'family-name',
      email: 'email',
      phone: 'tel',
    }[name];
    return (
      <Labelled id={name} label={label} required={required} t={t}>
        <input
          id={name}
          name={name}
          type={type}
          autocomplete={autocomplete}
          value={p[name] ?? ''}
          aria-required={required ? 'true' : undefined}
          maxlength={name === 'phone' ? 64 : 254}
          {...attrs}
        />
        <FieldError error={error} id={id} />
      </Labelled>
    );
  };
  const certificate = errorOf(errors, 'certificate');
  return (
    <form method="post" action={`/schedule/${model.account.id}`} novalidate id="details-form">
      <input type="hidden" name="csrf" value={csrf} />
      <Carry
        pairs={choicePairs(
          { ...choices, prefill: { fields: new Map() } },
          { datetime: true, date: true },
        )}
      />
      <h2>{t('details.heading')}</h2>
      {fieldErrors.length > 0 && (
        <Notice kind="error" id="form-errors">
          {formErrors.length > 0
            ? formErrors.map((e) => e.message).join(' ')
            : t('details.correct')}
        </Notice>
      )}
      {detail('firstName', t('details.firstName'))}
      {detail('lastName', t('details.lastName'))}
      {detail('email', t('details.email'))}
      {detail('phone', t('details.phone'))}
      {model.forms.map((form) => (
        <fieldset>
          <legend>{form.name}</legend>
          {form.description && <p class="description">{form.description}</p>}
          {form.fields.map((field) => (
            <FormField field={field} value={p.fields.get(field.id)} errors={errors} t={t} />
          ))}
        </fieldset>
      ))}
      <Labelled id="certificate" label={t('details.certificate')} t={t}>
        <input
          id="certificate"
          name="certificate"
          type="text"
          autocomplete="off"
          value={p.certificate ?? ''}
          maxlength={64}
          {...certificate.attrs}
        />
        <FieldError error={certificate.error} id={certificate.id} />
      </Labelled>
      {model.asksSmsOptIn && (
        <div class="choice">
          <input type="checkbox" id="smsOptIn" name="smsOptIn" value="yes" />
          <label for="smsOptIn">{t('details.sms')}</label>
        </div>
      )}
      <button type="submit">
        {series ? t('details.confirmSeries', { count: series.length }) : t('details.confirm')}
      </button>
    </form>
  );
}

/** One question, as its type asks it; named `field:ID` as links prefill it. */
function FormField(props: { field: Field; value?: string; errors: PageError[]; t: Translate }) {
  const { field, value = '', t } = props;
  const name = `field:${field.id}`;
  const id = `field-${field.id}`;
  const { error, id: errorId, attrs } = errorOf(props.errors, name);
  const required = field.required ? { 'aria-required': 'true' as const } : {};
  const legend = (
    <legend>
      {field.name}
      {field.required && <span class="required"> {t('common.required')}</span>}
    </legend>
  );
  if (field.type === 'checkboxlist' || field.type === 'yesno') {
    const chosen = value.split(', ');
    const options = field.type === 'yesno' ? ['yes', 'no'] : (field.options ?? []);
    return (
      <fieldset class="field" id={id} {...attrs}>
        {legend}
        {options.map((option, i) => (
          <div class="choice">
            <input
              type={field.type === 'yesno' ? 'radio' : 'checkbox'}
              id={`${id}-${i}`}
              name={name}
              value={option}
              checked={field.type === 'yesno' ? value === option : chosen.includes(option)}
            />
            <label for={`${id}-${i}`}>
              {field.type === 'yesno' ? t(option === 'yes' ? 'details.yes' : 'details.no') : option}
            </label>
          </div>
        ))}
        <FieldError error={error} id={errorId} />
      </fieldset>
    );
  }
  if (field.type === 'checkbox')
    return (
      <div class="field choice">
        <input
          type="checkbox"
          id={id}
          name={name}
          value="yes"
          checked={value === 'yes'}
          {...required}
          {...attrs}
        />
        <label for={id}>
          {field.name}
          {field.required && <span class="required"> {t('common.required')}</span>}
        </label>
        <FieldError error={error} id={errorId} />
      </div>
    );
  let control;
  if (field.type === 'dropdown')
    control = (
      <select id={id} name={name} {...required} {...attrs}>
        <option value="">{t('details.choose')}</option>
        {(field.options ?? []).map((option) => (
          <option selected={option === value}>{option}</option>
        ))}
      </select>
    );
  else if (field.type === 'textarea' || field.type === 'address')
    control = (
      <textarea id={id} name={name} rows={field.lines ?? 3} {...required} {...attrs}>
        {value}
      </textarea>
    );
  else
    control = (
      <input
        id={id}
        name={name}
        type={field.type === 'file' ? 'url' : 'text'}
        value={value}
        placeholder={field.type === 'file' ? 'https://…' : undefined}
        {...required}
        {...attrs}
      />
    );
  return (
    <Labelled id={id} label={field.name} required={field.required} t={t}>
      {field.type === 'file' && <span class="hint">{t('details.fileHint')}</span>}
      {control}
      <FieldError error={error} id={errorId} />
    </Labelled>
  );
}
