import type { Account } from '../accounts';
import { monthGrid } from './choice-lists';
import { elementsOf } from './page-html.fixtures';
import type { PageError } from './page-errors';
import { readChoices, queryParams } from './scheduling-choices';
import type { SchedulingModel } from './scheduling-model';
import { type SchedulingPageProps, schedulingPage } from './scheduling-page';

const account = { id: 7, name: 'Dr. "Tom" & <Jerry>', currency: 'USD', firstDayOfWeek: 0 };
const model = (over: Partial<SchedulingModel> = {}): SchedulingModel => ({
  account: account as Account,
  types: [],
  type: {
    id: 12,
    name: 'Cut & <b>dry</b> "style"',
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
const page = (over: Partial<SchedulingPageProps>) =>
  elementsOf(
    schedulingPage({
      model: model(),
      choices: choicesOf(chosen),
      look: { lang: 'en' },
      csrf: 'tok',
      errors: [],
      ...over,
    }),
  );
const named = (elements: ReturnType<typeof page>, name: string) =>
  elements.filter((e) => e.name === name);

describe('the month grid', () => {
  const grid = (firstDay: number, lang: 'en' | 'de' = 'en') =>
    elementsOf(
      monthGrid({
        lang,
        month: '2030-06',
        firstDay,
        dates: ['2030-06-03', '2030-06-04'],
        chosen: '2030-06-04',
        today: '2030-06-10',
        heading: 'date.month',
        dayLink: (date) => `/s?a=1&date=${date}`,
        monthLink: (by) => `/s?a=1&by=${by}`,
        notice: '',
      }),
    );

  it('has weeks as rows from the first day of the week, each day in its weekday’s column', () => {
    // June 1, 2030 is a Saturday: the 7th column from Sunday, the 6th from Monday.
    for (const [firstDay, lead, rows] of [
      [0, 6, 6],
      [1, 5, 5],
    ]) {
      const elements = grid(firstDay);
      const headers = named(elements, 'abbr').map((e) => e.attributes.title);
      expect(headers[0]).toBe(firstDay === 0 ? 'Sunday' : 'Monday');
      expect(named(elements, 'tr')).toHaveLength(rows + 1);
      const cells = named(elements, 'td');
      expect(cells.slice(0, lead).every((c) => c.text === '')).toBe(true);
      expect(cells[lead].text).toBe('Saturday, June 1, 20301');
      expect(cells.length % 7).toBe(0);
    }
  });

  it('links the days with times only, named by their full date; marks today and the chosen day', () => {
    const elements = grid(1);
    const links = named(elements, 'a').filter((a) => a.attributes.class?.startsWith('day'));
    expect(links.map((a) => [a.attributes['aria-label'], a.text, a.attributes.href])).toEqual([
      ['Monday, June 3, 2030', '3', '/s?a=1&date=2030-06-03'],
      ['Tuesday, June 4, 2030', '4', '/s?a=1&date=2030-06-04'],
    ]);
    expect(links[1].attributes['aria-current']).toBe('true');
    const today = elements.find((e) => e.attributes.class === 'day off today');
    expect(today?.attributes['aria-current']).toBe('date');
    expect(today?.text).toBe('Monday, June 10, 203010');
    expect(named(elements, 'a').map((a) => a.attributes.rel)).toContain('prev');
  });

  it('speaks the page’s language', () => {
    const elements = grid(1, 'de');
    expect(named(elements, 'h2')[0].text).toBe('Wählen Sie ein Datum im Juni 2030');
    expect(named(elements, 'abbr')[0].attributes.title).toBe('Montag');
    expect(named(elements, 'a').map((a) => a.attributes['aria-label'])).toContain(
      'Montag, 3. Juni 2030',
    );
  });
});

describe('the scheduling page written as text', () => {
  it('writes every business’s and client’s text as text, never as markup', () => {
    const elements = page({
      model: model({
        calendars: [calendar(3, 'Ann "A" & <i>B</i>'), calendar(4, 'Bo')],
        addons: [addon(5, 'Wax & <u>polish</u>', '10.00'), addon(6, 'Tea', '0')],
      }),
      choices: choicesOf({
        ...chosen,
        calendarID: '4',
        addonIDs: '6',
        firstName: 'Ada "&" <s>Lovelace</s>',
        'field:3': 'x&y',
      }),
      csrf: 'a"b&c',
      errors: [taken],
    });
    for (const tag of ['b', 'i', 'u', 's', 'gone', 'jerry'])
      expect(named(elements, tag)).toEqual([]);
    expect(named(elements, 'h1')[0].text).toBe('Book an appointment with Dr. "Tom" & <Jerry>');
    expect(elements.find((e) => e.attributes.name === 'firstName')?.attributes.value).toBe(
      'Ada "&" <s>Lovelace</s>',
    );
    expect(elements.find((e) => e.attributes.name === 'csrf')?.attributes.value).toBe('a"b&c');
    expect(elements.find((e) => e.attributes.role === 'alert')?.text).toBe(taken.message);
    // One click per choice: a calendar is a link ("Anyone available" too), the chosen one marked.
    const names = ['Anyone available', 'Ann "A" & <i>B</i>', 'Bo'];
    const pills = named(elements, 'a').filter((a) => names.includes(a.text));
    expect(pills.map((a) => [a.text, a.attributes['aria-current']])).toEqual([
      ['Anyone available', undefined],
      ['Ann "A" & <i>B</i>', undefined],
      ['Bo', 'true'],
    ]);
  });

  it('makes each time a submit button of the hold form, named by its time', () => {
    const elements = page({});
    const form = elements.find((e) => e.name === 'form' && e.attributes.method === 'post');
    expect(form?.attributes.action).toBe('/schedule/7/hold');
    const buttons = named(elements, 'button').filter((b) => b.attributes.name === 'datetime');
    expect(buttons.map((b) => [b.text, b.attributes.type, b.attributes.value])).toEqual([
      ['9:00am', 'submit', '2030-06-04T09:00:00-0400'],
      ['9:30am', 'submit', '2030-06-04T09:30:00-0400'],
    ]);
    expect(named(elements, 'button').map((b) => b.text)).not.toContain('Continue');
  });

  it('makes each type one link to its date step, carrying the language and the answers', () => {
    const type = model().type as SchedulingModel['types'][number];
    const elements = page({
      model: model({ type: undefined, types: [type] }),
      choices: choicesOf({ lang: 'fr', firstName: 'Ada' }),
      look: { lang: 'fr' },
    });
    expect(named(elements, 'html')[0].attributes.lang).toBe('fr');
    const link = named(elements, 'a').find((a) => a.text.startsWith('Cut'));
    expect(link?.attributes.href).toBe('/schedule/7?appointmentType=12&lang=fr&firstName=Ada');
    expect(link?.text).toBe('Cut & <b>dry</b> "style" 30 minutes · 40,00\u00a0$US');
  });

  it('shows the account’s colour and logo, and links the page in the other languages', () => {
    const elements = page({
      look: {
        lang: 'es',
        accentColor: '#1d4ed8',
        logoUrl: 'https://cdn.example/logo.png?a=1&b="2"',
        name: account.name,
        here: '/schedule/7?appointmentType=12&date=2030-06-04',
      },
    });
    expect(named(elements, 'html')[0].attributes.lang).toBe('es');
    expect(named(elements, 'link').map((l) => l.attributes.href)).toContain(
      '/pages/accent-1d4ed8.css',
    );
    expect(named(elements, 'img')[0].attributes).toMatchObject({
      src: 'https://cdn.example/logo.png?a=1&b="2"',
      alt: account.name,
    });
    const languages = named(elements, 'a').filter((a) => a.attributes.hreflang);
    expect(languages.map((a) => [a.text, a.attributes.href])).toEqual([
      ['English', '/schedule/7?appointmentType=12&date=2030-06-04&lang=en'],
      ['Français', '/schedule/7?appointmentType=12&date=2030-06-04&lang=fr'],
      ['Deutsch', '/schedule/7?appointmentType=12&date=2030-06-04&lang=de'],
    ]);
    expect(named(elements, 'h2').map((h) => h.text)).toContain(
      'Horas disponibles el martes, 4 de junio de 2030 (America/New_York)',
    );
  });
});
