import { type VNode, h } from 'preact';
import type { AppointmentView } from '../appointments';
import { DateChoices, TimeChoices, TimesOf } from './by-preact.fixtures';
import { type ReschedulePageProps, reschedulePage } from './confirmation-page';
import { momentIn, monthOf, shiftMonth } from './formats';
import { Carry, Layout, Notice, html } from './layout';
import type { PageError } from './page-errors';

/* The reschedule page as preact wrote it before it was written as text: the reference it must match. */

function ReschedulePageByPreact(props: ReschedulePageProps) {
  const error = props.errors[0];
  const times = props.times ?? [];
  const monthLink = (by: number) =>
    `${props.path}/reschedule?${new URLSearchParams({ month: shiftMonth(props.month, by), timezone: props.zone }).toString()}`;
  return h(Layout, {
    title: `Reschedule your ${props.view.type}`,
    children: [
      h(
        'p',
        null,
        'Now: ',
        momentIn(props.view.datetime, props.zone),
        '. ',
        h('a', { href: props.path }, 'Keep this time'),
      ),
      error && h(Notice, { kind: 'error', children: error.message }),
      h(
        'form',
        { method: 'get', action: `${props.path}/reschedule`, id: 'date-form' },
        h('input', { type: 'hidden', name: 'month', value: props.month }),
        h('input', { type: 'hidden', name: 'timezone', value: props.zone }),
        h(DateChoices, {
          legend: 'Choose a new date in',
          month: props.month,
          monthLink,
          dates: props.dates,
          chosen: props.date,
          children:
            props.dates.length === 0 &&
            h('p', null, 'No dates are available in ', monthOf(props.month), '.'),
        }),
      ),
      props.date &&
        h(TimesOf, {
          date: props.date,
          zone: props.zone,
          children:
            times.length === 0
              ? h('p', null, 'No times are available on this date.')
              : h(
                  'form',
                  { method: 'post', action: `${props.path}/reschedule` },
                  h('input', { type: 'hidden', name: 'csrf', value: props.csrf }),
                  h(Carry, { pairs: [['timezone', props.zone]] }),
                  h(TimeChoices, { legend: 'Choose a new time', times }),
                  h('button', { type: 'submit' }, 'Move my appointment'),
                ),
        }),
    ],
  }) as VNode;
}

const taken: PageError = { place: 'time', message: 'That time was "just" taken & <gone>.' };
const view = {
  type: 'Cut & <dry> "style"',
  datetime: '2030-06-04T09:00:00-0400',
} as AppointmentView;
const reschedules: [string, ReschedulePageProps][] = [
  [
    'a date chosen, its times',
    {
      view,
      path: '/confirmation/a"b&<c>',
      csrf: 'x"&<y',
      zone: 'America/New_York',
      month: '2030-06',
      dates: ['2030-06-03', '2030-06-04'],
      date: '2030-06-04',
      times: ['2030-06-04T09:00:00-0400', '2030-06-04T09:30:00-0400'],
      errors: [taken],
    },
  ],
  [
    'no date chosen',
    {
      view,
      path: '/confirmation/t',
      csrf: 'c',
      zone: 'Europe/Paris',
      month: '2030-07',
      dates: ['2030-07-01'],
      errors: [],
    },
  ],
  [
    'no dates, a date without times',
    {
      view,
      path: '/confirmation/t',
      csrf: 'c',
      zone: 'Europe/Paris',
      month: '2030-07',
      dates: [],
      date: '2030-07-02',
      times: [],
      errors: [],
    },
  ],
];

describe('the reschedule page written as text', () => {
  it.each(reschedules)('is what preact wrote, %s', (_, props) => {
    expect(reschedulePage(props)).toBe(html(ReschedulePageByPreact(props)));
  });
});
