import type { AppointmentView } from '../appointments';
import { reschedulePage } from './confirmation-page';
import { elementsOf } from './page-html.fixtures';

const view = {
  type: 'Cut & <b>dry</b> "style"',
  datetime: '2030-06-04T09:00:00-0400',
} as AppointmentView;

describe('the reschedule page written as text', () => {
  it('is well formed, escapes the business’s text, keeps the language in its links', () => {
    const elements = elementsOf(
      reschedulePage({
        view,
        look: { lang: 'de' },
        firstDay: 1,
        path: '/confirmation/a"b&<c>',
        csrf: 'x"&<y',
        zone: 'America/New_York',
        month: '2030-06',
        dates: ['2030-06-03', '2030-06-04'],
        date: '2030-06-04',
        times: ['2030-06-04T09:00:00-0400', '2030-06-04T09:30:00-0400'],
        errors: [{ place: 'time', message: 'That time was "just" taken & <gone>.' }],
      }),
    );
    expect(elements.filter((e) => ['b', 'c', 'gone'].includes(e.name))).toEqual([]);
    expect(elements.find((e) => e.name === 'h1')?.text).toBe(
      'Termin verlegen: Cut & <b>dry</b> "style"',
    );
    const day = elements.find((e) => e.attributes['aria-label'] === 'Montag, 3. Juni 2030');
    expect(day?.attributes.href).toBe(
      '/confirmation/a"b&<c>/reschedule?month=2030-06&timezone=America%2FNew_York&date=2030-06-03&lang=de',
    );
    expect(
      elements.filter((e) => e.name === 'input' && e.attributes.name === 'datetime'),
    ).toHaveLength(2);
    expect(elements.find((e) => e.attributes.name === 'csrf')?.attributes.value).toBe('x"&<y');
  });
});
