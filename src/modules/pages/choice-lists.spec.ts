import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { Choice, type PlainChoice, plainChoices } from './choice-lists';

/** What preact writes for the same choices, `<Choice>` by `<Choice>`. */
function byPreact(name: string, choices: PlainChoice[], required: boolean): string {
  return choices
    .map(({ id, value, label, checked }) =>
      render(
        h(Choice, { id, name, value, required: required || undefined, checked, children: label }),
      ),
    )
    .join('');
}

describe('plainChoices', () => {
  const cases: [string, PlainChoice[], boolean][] = [
    ['date', [], false],
    [
      'date',
      [
        {
          id: 'date-2030-06-03',
          value: '2030-06-03',
          label: 'Monday, June 3, 2030',
          checked: false,
        },
        {
          id: 'date-2030-06-04',
          value: '2030-06-04',
          label: 'Tuesday, June 4, 2030',
          checked: true,
        },
      ],
      false,
    ],
    [
      'datetime',
      [
        { id: 'time-0', value: '2030-06-03T09:30:00-0400', label: '9:30am', checked: true },
        { id: 'time-1', value: '2030-06-03T10:00:00-0400', label: '10:00am', checked: false },
      ],
      true,
    ],
    [
      'a"&<>\'b',
      [{ id: 'x"&<>\'y', value: '"&<>\'', label: '<b>"Tom" & \'Jerry\'</b>', checked: true }],
      true,
    ],
  ];

  it.each(cases)('writes what preact writes for <Choice>s of %s', (name, choices, required) => {
    expect(plainChoices(name, choices, required)).toBe(byPreact(name, choices, required));
  });
});
