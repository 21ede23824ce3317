import { parseQuery } from '../../common/http/request-parsing';
import { choicePairs, formParams, queryParams, readChoices } from './scheduling-choices';

describe('readChoices (the dynamic links and the steps)', () => {
  it('reads a link as the reference writes it', () => {
    const choices = readChoices(
      queryParams(
        parseQuery(
          'appointmentType[]=12&appointmentType[]=13&calendarID=4&addonIDs[]=7&timezone=Europe/Paris' +
            '&month=2030-06&date=2030-06-03&datetime=2030-06-03T09:00:00%2B0200' +
            '&firstName=Ada&email=ada%40example.com&field:9=yes&certificate=HALF',
        ),
      ),
    );
    expect(choices).toEqual({
      typeIds: [12, 13],
      calendarId: 4,
      addonIds: [7],
      timezone: 'Europe/Paris',
      month: '2030-06',
      date: '2030-06-03',
      datetime: '2030-06-03T09:00:00+0200',
      prefill: {
        firstName: 'Ada',
        lastName: undefined,
        email: 'ada@example.com',
        phone: undefined,
        certificate: 'HALF',
        fields: new Map([[9, 'yes']]),
      },
    });
  });

  it('reads a series asked for as one the API takes at all, and carries it to the next step', () => {
    const read = (query: string) => readChoices(queryParams(parseQuery(query))).repeat;
    expect(read('repeat=weekly&count=6')).toEqual({ frequency: 'weekly', count: 6 });
    expect(read('repeat=monthly&count=52')).toEqual({ frequency: 'monthly', count: 52 });
    for (const hostile of [
      'repeat=yearly&count=6',
      'repeat=weekly&count=1',
      'repeat=weekly&count=53',
      'repeat=weekly&count=6.5',
      'repeat=weekly&count=1e1',
      'repeat=weekly&count=%206',
      'repeat=weekly',
      'repeat=&count=6',
      'repeat[]=weekly&repeat[]=daily&count=99999999999999999999',
    ])
      expect(read(hostile)).toBeUndefined();
    const choices = readChoices(
      queryParams(
        parseQuery('appointmentType=1&datetime=2030-06-03T09:00:00-0400&repeat=daily&count=3'),
      ),
    );
    expect(choicePairs(choices, { datetime: true })).toEqual(
      expect.arrayContaining([
        ['repeat', 'daily'],
        ['count', '3'],
      ]),
    );
    expect(choicePairs(choices, { date: true })).not.toContainEqual(['repeat', 'daily']);
  });

  it('drops what is no id, zone, month, date or time; a checkbox list is joined', () => {
    const form = new URLSearchParams(
      'appointmentType=abc&appointmentType=0&calendarID=-1&timezone=Mars/Olympus&month=2030-13-01' +
        '&date=tomorrow&datetime=2030-06-03&field:5=A&field:5=B&field:x=1',
    );
    const choices = readChoices(formParams(form));
    expect(choices).toMatchObject({
      typeIds: [],
      calendarId: undefined,
      timezone: undefined,
      month: undefined,
      date: undefined,
      datetime: undefined,
    });
    expect(choices.prefill.fields).toEqual(new Map([[5, 'A, B']]));
  });

  it.each([
    ['2030-06-03T09:30:00-0400', true],
    ['2030-06-03T23:59-0400', true],
    ['2030-02-31T09:00:00-0400', false],
    ['2030-06-03T24:00:00-0400', false],
    ['2030-06-03T25:99-0400', false],
    ['2030-06-03T09:60:00-0400', false],
    ['2030-06-03T09:00:60-0400', false],
  ])('takes the time %s as chosen: %s (a time no day has is none)', (datetime, chosen) => {
    const choices = readChoices(queryParams({ datetime }));
    expect(choices.datetime).toBe(chosen ? datetime : undefined);
  });

  it('carries the choices to the next step', () => {
    const choices = readChoices(
      queryParams(parseQuery('appointmentType=12&date=2030-06-03&timezone=UTC&firstName=Ada')),
    );
    expect(choicePairs(choices, { date: true })).toEqual([
      ['appointmentType', '12'],
      ['timezone', 'UTC'],
      ['date', '2030-06-03'],
      ['firstName', 'Ada'],
    ]);
  });
});
