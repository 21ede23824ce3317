import { Fragment, type VNode, h } from 'preact';
import { type PlainChoice, plainChoices } from './choice-lists';
import { clockOf, dayOf, monthOf } from './formats';

/* The date and time lists as preact wrote them before they were written as text: the reference. */

const dateList = (dates: string[], chosen?: string): PlainChoice[] =>
  dates.map((date) => ({
    id: `date-${date}`,
    value: date,
    label: dayOf(date),
    checked: date === chosen,
  }));

export function DateChoices(props: {
  legend: string;
  month: string;
  monthLink: (by: number) => string;
  dates: string[];
  chosen?: string;
  children: unknown;
}) {
  return h(
    Fragment,
    null,
    h(
      'fieldset',
      null,
      h('legend', null, props.legend, ' ', monthOf(props.month)),
      h(
        'p',
        { class: 'months' },
        h('a', { href: props.monthLink(-1) }, 'Previous month'),
        ' ',
        h('a', { href: props.monthLink(1) }, 'Next month'),
      ),
      props.children as VNode,
      h('div', {
        class: 'dates',
        dangerouslySetInnerHTML: {
          __html: plainChoices('date', dateList(props.dates, props.chosen)),
        },
      }),
    ),
    h('button', { type: 'submit' }, 'Show available times'),
  );
}

export function TimesOf(props: { date: string; zone: string; children: unknown }) {
  return h(
    'section',
    { id: 'times', 'aria-live': 'polite', 'aria-labelledby': 'times-heading' },
    h(
      'h2',
      { id: 'times-heading' },
      'Available times on ',
      dayOf(props.date),
      ' (',
      props.zone,
      ')',
    ),
    props.children as VNode,
  );
}

export function TimeChoices(props: { legend: string; times: string[] }) {
  const list = props.times.map((time, i) => ({
    id: `time-${i}`,
    value: time,
    label: clockOf(time),
    checked: i === 0,
  }));
  return h(
    'fieldset',
    null,
    h('legend', null, props.legend),
    h('div', {
      class: 'times',
      dangerouslySetInnerHTML: { __html: plainChoices('datetime', list, true) },
    }),
  );
}
