import { Fragment, type VNode, h } from 'preact';
import { render } from 'preact-render-to-string';
import type { Account } from '../accounts';
import { DateChoices, TimeChoices, TimesOf } from './by-preact.fixtures';
import { Choice } from './choice-lists';
import { clockOf, momentIn, monthOf, priceOf, shiftMonth, zoneOptions } from './formats';
import { Carry, Layout, Notice, html, pageHtml } from './layout';
import type { PageError } from './page-errors';
import { choicePairs, prefillPairs, queryOf, readChoices, queryParams } from './scheduling-choices';
import type { SchedulingModel } from './scheduling-model';
import { type SchedulingPageProps, dateStep, summary, timeList } from './scheduling-page';

/* The date step as preact wrote it before it was written as text: the reference it must match. */

const pathOf = (m: SchedulingModel) => `/schedule/${m.account.id}`;

function DateStepByPreact({ model, choices }: SchedulingPageProps) {
  const carried: [string, string][] = [
    ['appointmentType', String(model.type!.id)],
    ...prefillPairs(choices.prefill),
  ];
  const monthLink = (by: number) =>
    `${pathOf(model)}${queryOf(choicePairs({ ...choices, month: shiftMonth(model.month, by) }, { month: true }))}`;
  return h(
    'form',
    { method: 'get', action: pathOf(model), id: 'date-form' },
    h(Carry, { pairs: carried }),
    h('input', { type: 'hidden', name: 'month', value: model.month }),
    model.calendars.length > 1 &&
      h(
        'p',
        null,
        h('label', { for: 'calendarID' }, 'With'),
        h(
          'select',
          { id: 'calendarID', name: 'calendarID' },
          h('option', { value: '' }, 'Anyone available'),
          model.calendars.map((c) =>
            h('option', { value: String(c.id), selected: c.id === choices.calendarId }, c.name),
          ),
        ),
      ),
    model.addons.length > 0 &&
      h(
        'fieldset',
        null,
        h('legend', null, 'Add to your appointment'),
        model.addons.map((a) =>
          h(Choice, {
            type: 'checkbox',
            id: `addon-${a.id}`,
            name: 'addonIDs',
            value: String(a.id),
            checked: choices.addonIds.includes(a.id),
            children: [
              a.name,
              ' ',
              h(
                'span',
                { class: 'meta' },
                '+',
                a.duration,
                ' minutes · ',
                priceOf(a.price, model.account.currency),
              ),
            ],
          }),
        ),
      ),
    h(
      'p',
      null,
      h('label', { for: 'timezone' }, 'Time zone'),
      h('select', {
        id: 'timezone',
        name: 'timezone',
        'data-zone-picker': choices.timezone ? undefined : '',
        dangerouslySetInnerHTML: { __html: zoneOptions(model.zone) },
      }),
    ),
    h(DateChoices, {
      legend: 'Choose a date in',
      month: model.month,
      monthLink,
      dates: model.dates,
      chosen: choices.date,
      children: [
        model.problem && h(Notice, { kind: 'error', children: model.problem }),
        model.dates.length === 0 &&
          !model.problem &&
          h('p', null, 'No dates are available in ', monthOf(model.month), '. Try the next month.'),
      ],
    }),
  );
}

function TimeListByPreact({ model, choices, csrf, errors }: SchedulingPageProps) {
  const taken = errors.find((e) => e.place === 'time');
  const times = model.times ?? [];
  return h(TimesOf, {
    date: choices.date!,
    zone: model.zone,
    children: [
      taken && h(Notice, { kind: 'error', children: taken.message }),
      taken?.unheld &&
        h(
          'p',
          null,
          'You can still book it: it is yours if no one else books it before you finish.',
          ' ',
          h(
            'a',
            {
              href: `${pathOf(model)}${queryOf(choicePairs({ ...choices, datetime: taken.unheld, hold: undefined }, { date: true, datetime: true }))}`,
            },
            'Continue without holding ',
            clockOf(taken.unheld),
          ),
        ),
      times.length === 0
        ? h('p', null, 'No times are available on this date. Please choose another date.')
        : h(
            'form',
            { method: 'post', action: `${pathOf(model)}/hold` },
            h('input', { type: 'hidden', name: 'csrf', value: csrf }),
            h(Carry, {
              pairs: choicePairs(
                { ...choices, datetime: undefined, hold: undefined },
                { date: true },
              ),
            }),
            h(TimeChoices, { legend: 'Choose a time', times }),
            h('button', { type: 'submit' }, 'Continue'),
          ),
    ],
  });
}

function SummaryByPreact({ model, choices }: SchedulingPageProps) {
  const type = model.type!;
  const addons = model.addons.filter((a) => choices.addonIds.includes(a.id));
  const back = queryOf(prefillPairs(choices.prefill));
  return h(
    'section',
    { class: 'summary', 'aria-label': 'Your choice' },
    h(
      'p',
      null,
      h('strong', null, type.name),
      ', ',
      type.duration + addons.reduce((n, a) => n + a.duration, 0),
      ' ',
      'minutes, ',
      priceOf(type.price, model.account.currency),
      addons.length > 0 && ` + ${addons.map((a) => a.name).join(', ')}`,
      ' ',
      model.types.length === 0 &&
        choices.typeIds.length === 1 &&
        h('a', { href: `${pathOf(model)}${back}` }, 'Choose another appointment'),
    ),
    choices.datetime &&
      h(
        'p',
        null,
        h('strong', null, 'When:'),
        ' ',
        momentIn(choices.datetime, model.zone),
        ' ',
        h(
          'a',
          {
            href: `${pathOf(model)}${queryOf(choicePairs({ ...choices, hold: undefined }, { date: true }))}`,
          },
          'Change the time',
        ),
      ),
    choices.hold
      ? h('p', null, 'This time is held for you for a few minutes while you fill in your details.')
      : choices.datetime &&
          h(
            'p',
            null,
            'This time is not held for you: someone else may book it before you finish.',
          ),
  );
}

const account = { id: 7, name: 'Dr. "Tom" & <Jerry>', currency: 'USD' } as Account;
const model = (over: Partial<SchedulingModel>): SchedulingModel => ({
  account,
  types: [],
  type: {
    id: 12,
    name: 'Consultation',
    duration: 30,
    price: '40.00',
    calendarIDs: [3, 4],
    addonIDs: [5, 6],
    formIDs: [],
  },
  calendars: [],
  addons: [],
  zone: 'America/New_York',
  month: '2030-06',
  dates: ['2030-06-03', '2030-06-04', '2030-06-05'],
  times: ['2030-06-04T09:00:00-0400', '2030-06-04T09:30:00-0400'],
  forms: [],
  asksSmsOptIn: false,
  ...over,
});
const choicesOf = (query: Record<string, string | string[]>) => readChoices(queryParams(query));
const chosen = { appointmentType: '12', date: '2030-06-04', timezone: 'America/New_York' };
const calendar = (id: number, name: string) =>
  ({ id, name, timezone: 'Europe/Paris' }) as SchedulingModel['calendars'][number];
const addon = (id: number, name: string, price: string) =>
  ({ id, name, price, duration: 15 }) as SchedulingModel['addons'][number];
const taken: PageError = { place: 'time', message: 'That time was "just" taken & <gone>.' };

const cases: [string, SchedulingPageProps][] = [
  ['a zone chosen', { model: model({}), choices: choicesOf(chosen), csrf: 'tok', errors: [] }],
  [
    'calendars, addons, answers carried, no zone chosen',
    {
      model: model({
        calendars: [calendar(3, 'Ann "A" & <B>'), calendar(4, 'Bo')],
        addons: [addon(5, 'Wax & <polish>', '10.00'), addon(6, 'Tea', '0')],
      }),
      choices: choicesOf({
        appointmentType: '12',
        date: '2030-06-04',
        calendarID: '4',
        addonIDs: '6',
        firstName: 'Ada "&" <Lovelace>',
        'field:3': 'x&y',
      }),
      csrf: 'a"b&c',
      errors: [taken],
    },
  ],
  [
    'a problem, no dates, no times, a time not held',
    {
      model: model({ problem: 'The date is "out" of <range> & more.', dates: [], times: [] }),
      choices: choicesOf(chosen),
      csrf: 'tok',
      errors: [{ ...taken, unheld: '2030-06-04T09:30:00-0400' }],
    },
  ],
  [
    'no dates, no problem',
    {
      model: model({ dates: [], times: undefined }),
      choices: choicesOf(chosen),
      csrf: '',
      errors: [],
    },
  ],
];

const details = { ...chosen, datetime: '2030-06-04T09:30:00-0400', firstName: 'A&"<' };
const summaries: [string, SchedulingPageProps][] = [
  ...cases,
  [
    'a time held',
    { model: model({}), choices: choicesOf({ ...details, hold: 'abc' }), csrf: '', errors: [] },
  ],
  ['a time not held', { model: model({}), choices: choicesOf(details), csrf: '', errors: [] }],
  [
    'a type chosen among others',
    {
      model: model({ types: [model({}).type as SchedulingModel['types'][number]] }),
      choices: choicesOf(details),
      csrf: '',
      errors: [],
    },
  ],
];

describe('the date step written as text', () => {
  it.each(summaries)('summary: is what preact wrote, %s', (_, props) => {
    expect(summary(props)).toBe(render(SummaryByPreact(props)));
  });

  it.each(cases)('is what preact wrote, %s', (_, props) => {
    expect(dateStep(props)).toBe(render(DateStepByPreact(props)));
    expect(timeList(props)).toBe(render(TimeListByPreact(props)));
  });

  it('sits in the layout as preact writes it', () => {
    const body = h(
      Fragment,
      null,
      h('p', null, 'a "b" & <c>'),
      h(Notice, { kind: 'info', children: 'd' }),
    );
    const title = 'Book an appointment with Dr. "Tom" & <Jerry>';
    expect(pageHtml(title, render(body))).toBe(html(h(Layout, { title, children: body }) as VNode));
  });
});
