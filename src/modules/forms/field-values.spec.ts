import type { DomainError } from '../../common/errors/domain-error';
import {
  type FieldDefinition,
  type FieldValueInput,
  MAX_FIELD_VALUE_LENGTH,
  validateFieldValues,
} from './field-values';
import type { FieldType } from './form-field.entity';

const CLIENT = { asAdmin: false };
const ADMIN = { asAdmin: true };

function field(id: number, type: FieldType, extra: Partial<FieldDefinition> = {}): FieldDefinition {
  const options = type === 'dropdown' || type === 'checkboxlist' ? ['A', 'B', 'C'] : null;
  return { id, formId: 10, type, required: false, options, formHidden: false, ...extra };
}

/** The error `run` throws, as a client sees it. */
function errorOf(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (e) {
    const { status, code, message } = e as DomainError;
    return { status, code, message };
  }
  throw new Error('expected an error');
}

const invalid = (message: string) => ({ status: 400, code: 'invalid_fields', message });
const required = (id: number) => ({
  status: 400,
  code: 'required_field',
  message: `The field "${id}" is required.`,
});
const badValue = (id: number, reason: string) =>
  invalid(`The value of field "${id}" is invalid: ${reason}.`);

describe('validateFieldValues', () => {
  describe('accepts each type and stores it as a string', () => {
    it.each<[FieldType, unknown, string]>([
      ['textbox', ' Jane ', 'Jane'],
      ['textbox', 42, '42'],
      ['textbox', 0, '0'],
      ['textbox', 'x'.repeat(MAX_FIELD_VALUE_LENGTH), 'x'.repeat(MAX_FIELD_VALUE_LENGTH)],
      ['textarea', '  first line\nsecond line\n', 'first line\nsecond line'],
      ['address', '1 Main St, Springfield', '1 Main St, Springfield'],
      ['dropdown', 'B', 'B'],
      ['dropdown', ' C ', 'C'],
      ['checkboxlist', 'A', 'A'],
      ['checkboxlist', 'A, B', 'A, B'],
      ['checkboxlist', 'C, A', 'C, A'],
      ['checkboxlist', ' A, B, C ', 'A, B, C'],
      ['yesno', true, 'yes'],
      ['yesno', false, 'no'],
      ['yesno', 'YES', 'yes'],
      ['yesno', ' No ', 'no'],
      ['checkbox', true, 'yes'],
      ['checkbox', 'no', 'no'],
      ['checkbox', 'Yes', 'yes'],
      [
        'file',
        'https://files.example.com/intake/form.pdf',
        'https://files.example.com/intake/form.pdf',
      ],
      ['file', ' http://example.com ', 'http://example.com'],
      ['file', 'HTTPS://EXAMPLE.COM/A?b=c#d', 'HTTPS://EXAMPLE.COM/A?b=c#d'],
    ])('%s %p → %p', (type, value, stored) => {
      expect(validateFieldValues([field(1, type)], [{ id: 1, value }], CLIENT)).toEqual([
        { fieldId: 1, formId: 10, value: stored },
      ]);
    });

    it.each<[FieldType, string[], unknown, string]>([
      ['dropdown', ['5', '10'], 10, '10'],
      ['checkboxlist', ['A,B', 'C'], 'A,B', 'A,B'],
      ['checkboxlist', ['A,B', 'C'], 'A,B, C', 'A,B, C'],
      ['checkboxlist', ['A, B', 'C'], 'A, B', 'A, B'],
    ])('%s of options %p: %p → %p', (type, options, value, stored) => {
      expect(
        validateFieldValues([field(1, type, { options })], [{ id: 1, value }], CLIENT),
      ).toEqual([{ fieldId: 1, formId: 10, value: stored }]);
    });
  });

  describe('refuses a bad value, admins too', () => {
    it.each<[FieldType, unknown, string]>([
      ['textbox', true, 'it must be a string'],
      ['textbox', {}, 'it must be a string'],
      ['textbox', ['a'], 'it must be a string'],
      ['textbox', Number.NaN, 'it must be a string'],
      ['textarea', 'x'.repeat(MAX_FIELD_VALUE_LENGTH + 1), 'it must be at most 10000 characters'],
      ['address', Number.POSITIVE_INFINITY, 'it must be a string'],
      ['dropdown', 'D', "it must be one of the field's options"],
      ['dropdown', 'a', "it must be one of the field's options"],
      ['dropdown', 'A, B', "it must be one of the field's options"],
      ['dropdown', false, 'it must be a string'],
      ['checkboxlist', 'A,B', 'a checkboxlist value lists its options separated by ", "'],
      ['checkboxlist', 'A,  B', 'a checkboxlist value lists its options separated by ", "'],
      ['checkboxlist', 'A, , B', 'a checkboxlist value lists its options separated by ", "'],
      ['checkboxlist', 'A, B,', 'a checkboxlist value lists its options separated by ", "'],
      ['checkboxlist', ['A', 'B'], 'a checkboxlist value lists its options separated by ", "'],
      ['checkboxlist', 'A, D', `"D" is not one of the field's options`],
      ['checkboxlist', 'a', `"a" is not one of the field's options`],
      ['checkboxlist', 'A, B, A', 'it lists "A" more than once'],
      ['yesno', 'maybe', 'it must be "yes" or "no"'],
      ['yesno', 'true', 'it must be "yes" or "no"'],
      ['yesno', 1, 'it must be "yes" or "no"'],
      ['checkbox', 'y', 'it must be "yes" or "no"'],
      ['file', 'ftp://files.example.com/a.pdf', 'it must be an http or https URL'],
      ['file', '/uploads/a.pdf', 'it must be an http or https URL'],
      ['file', 'files.example.com/a.pdf', 'it must be an http or https URL'],
      ['file', 'not a url', 'it must be an http or https URL'],
      ['file', 'javascript:alert(1)', 'it must be an http or https URL'],
      ['file', 'https:example.com', 'it must be an http or https URL'],
      ['file', 'http://', 'it must be an http or https URL'],
      ['file', 'https://exa mple.com/a', 'it must be an http or https URL'],
      ['file', 7, 'it must be an http or https URL'],
    ])('%s %p: %s', (type, value, reason) => {
      for (const mode of [CLIENT, ADMIN]) {
        expect(
          errorOf(() => validateFieldValues([field(7, type)], [{ id: 7, value }], mode)),
        ).toEqual(badValue(7, reason));
      }
    });
  });

  // Issue 20: control and bidi characters were stored in answers.
  describe('control characters: one line for one-line types, line breaks kept by textarea and address', () => {
    const ONE_LINE = 'it must be one line of text without control characters';
    const TEXT = 'it must be text without control characters';

    it.each<[FieldType, string, string, string]>([
      ['textbox', 'NUL', 'Jane\u0000', ONE_LINE],
      ['textbox', 'CR/LF', 'Jane\r\nPlease pay at http://evil.example', ONE_LINE],
      ['textbox', 'a tab', 'a\tb', ONE_LINE],
      ['textbox', 'a right-to-left override', 'Jane\u202Egnp.exe', ONE_LINE],
      ['textbox', 'a C1 control', 'a\u0085b', ONE_LINE],
      ['textbox', 'bidi isolates', 'a\u2066b\u2069', ONE_LINE],
      ['dropdown', 'a line feed', 'A\nB', ONE_LINE],
      ['checkboxlist', 'NUL', 'A,\u0000B', ONE_LINE],
      ['file', 'CR/LF (that URL parsing drops)', 'https://files.example.com/a\r\nb.pdf', ONE_LINE],
      ['file', 'a right-to-left override', 'https://files.example.com/\u202Efdp.exe', ONE_LINE],
      ['textarea', 'NUL', 'first line\u0000', TEXT],
      ['textarea', 'a right-to-left override', 'first line\u202Esecond', TEXT],
      ['textarea', 'BEL', 'a\u0007b', TEXT],
      ['textarea', 'a C1 control', 'a\u009Bb', TEXT],
      ['textarea', 'a line separator', 'a\u2028b', TEXT],
      ['address', 'NUL', '1 Main St\u0000', TEXT],
    ])('%s with %s: refused (admins too)', (type, _what, value, reason) => {
      for (const mode of [CLIENT, ADMIN]) {
        expect(
          errorOf(() => validateFieldValues([field(7, type)], [{ id: 7, value }], mode)),
        ).toEqual(badValue(7, reason));
      }
    });

    it.each<[FieldType, string]>([
      ['textarea', 'first line\r\nsecond line\n\tindented'],
      ['address', '1 Main St\nSpringfield, IL 62701'],
      ['textbox', 'Zoë O’Brien-王 😀'],
      ['textbox', 'שלום\u200F'],
    ])('%s %j is kept as written', (type, value) => {
      expect(validateFieldValues([field(1, type)], [{ id: 1, value }], CLIENT)).toEqual([
        { fieldId: 1, formId: 10, value },
      ]);
    });
  });

  describe('optional fields', () => {
    it.each<[FieldType, unknown]>([
      ['textbox', null],
      ['textbox', ''],
      ['textarea', '   '],
      ['dropdown', ''],
      ['checkboxlist', ' '],
      ['yesno', null],
      ['file', ''],
    ])('%s left blank with %p is not stored', (type, value) => {
      expect(validateFieldValues([field(1, type)], [{ id: 1, value }], CLIENT)).toEqual([]);
    });

    it('may be left out', () => {
      expect(validateFieldValues([field(1, 'textbox')], [], CLIENT)).toEqual([]);
    });
  });

  describe('required fields', () => {
    it.each<[FieldType, FieldValueInput[]]>([
      ['textbox', []],
      ['textbox', [{ id: 1, value: null }]],
      ['textbox', [{ id: 1, value: undefined }]],
      ['textbox', [{ id: 1, value: '' }]],
      ['textarea', [{ id: 1, value: ' \n ' }]],
      ['dropdown', [{ id: 1, value: '' }]],
      ['checkboxlist', []],
      ['yesno', [{ id: 1, value: '' }]],
      ['file', [{ id: 1, value: ' ' }]],
      ['checkbox', [{ id: 1, value: false }]],
      ['checkbox', [{ id: 1, value: 'NO' }]],
    ])('a %s given %p is refused to clients', (type, values) => {
      const f = field(1, type, { required: true });
      expect(errorOf(() => validateFieldValues([f], values, CLIENT))).toEqual(required(1));
    });

    it('take "no" as the answer of a yes/no question', () => {
      const f = field(1, 'yesno', { required: true });
      expect(validateFieldValues([f], [{ id: 1, value: false }], CLIENT)).toEqual([
        { fieldId: 1, formId: 10, value: 'no' },
      ]);
    });

    it('need a ticked checkbox', () => {
      const f = field(1, 'checkbox', { required: true });
      expect(validateFieldValues([f], [{ id: 1, value: true }], CLIENT)).toEqual([
        { fieldId: 1, formId: 10, value: 'yes' },
      ]);
    });

    it('may be left out by an admin, whose unticked checkbox is still stored', () => {
      const fields = [
        field(1, 'textbox', { required: true }),
        field(2, 'checkbox', { required: true }),
      ];
      expect(validateFieldValues(fields, [{ id: 2, value: 'no' }], ADMIN)).toEqual([
        { fieldId: 2, formId: 10, value: 'no' },
      ]);
    });

    it('are checked in field order, a bad value included', () => {
      const missing = field(1, 'textbox', { required: true });
      const bad = field(2, 'dropdown');
      const values = [{ id: 2, value: 'nope' }];
      expect(errorOf(() => validateFieldValues([missing, bad], values, CLIENT))).toEqual(
        required(1),
      );
      expect(errorOf(() => validateFieldValues([bad, missing], values, CLIENT))).toEqual(
        badValue(2, "it must be one of the field's options"),
      );
    });
  });

  describe('fields of a hidden form', () => {
    const hidden = field(5, 'textbox', { formId: 11, formHidden: true, required: true });

    it('do not exist for clients, and are not required of them', () => {
      expect(errorOf(() => validateFieldValues([hidden], [{ id: 5, value: 'x' }], CLIENT))).toEqual(
        invalid('The field "5" does not exist on this appointment.'),
      );
      expect(validateFieldValues([hidden], [], CLIENT)).toEqual([]);
    });

    it('are answered by admins', () => {
      expect(validateFieldValues([hidden], [{ id: 5, value: ' note ' }], ADMIN)).toEqual([
        { fieldId: 5, formId: 11, value: 'note' },
      ]);
    });
  });

  describe('ids', () => {
    it.each<[unknown, string]>([
      [99, '99'],
      [0, '0'],
      [-1, '-1'],
      [1.5, '1.5'],
      ['abc', 'abc'],
      ['01', '01'],
      ['', ''],
      [null, 'null'],
      [undefined, 'undefined'],
      [{ id: 1 }, '{"id":1}'],
    ])('%p names no field', (id, shown) => {
      expect(
        errorOf(() => validateFieldValues([field(1, 'textbox')], [{ id, value: 'x' }], ADMIN)),
      ).toEqual(invalid(`The field "${shown}" does not exist on this appointment.`));
    });

    it('may be a string of digits', () => {
      expect(
        validateFieldValues([field(12, 'textbox')], [{ id: '12', value: 'x' }], CLIENT),
      ).toEqual([{ fieldId: 12, formId: 10, value: 'x' }]);
    });

    it.each<[unknown, unknown]>([
      [1, 1],
      [1, '1'],
    ])('refuses %p then %p: one answer per field', (first, second) => {
      const values = [
        { id: first, value: 'x' },
        { id: second, value: 'y' },
      ];
      expect(errorOf(() => validateFieldValues([field(1, 'textbox')], values, CLIENT))).toEqual(
        invalid('The field "1" is given more than once.'),
      );
    });

    it('are checked before required fields and values', () => {
      const fields = [field(1, 'textbox', { required: true }), field(2, 'dropdown')];
      const values = [
        { id: 2, value: 'nope' },
        { id: 99, value: 'x' },
      ];
      expect(errorOf(() => validateFieldValues(fields, values, CLIENT))).toEqual(
        invalid('The field "99" does not exist on this appointment.'),
      );
    });
  });

  it('returns the answers in field order, with their form', () => {
    const fields = [
      field(3, 'textbox', { formId: 20 }),
      field(1, 'yesno', { formId: 20 }),
      field(2, 'checkboxlist', { formId: 21 }),
      field(4, 'textarea', { formId: 21 }),
    ];
    const values = [
      { id: 2, value: 'B, C' },
      { id: 4, value: '' },
      { id: 1, value: 'Yes' },
      { id: 3, value: 'Jane' },
    ];
    expect(validateFieldValues(fields, values, CLIENT)).toEqual([
      { fieldId: 3, formId: 20, value: 'Jane' },
      { fieldId: 1, formId: 20, value: 'yes' },
      { fieldId: 2, formId: 21, value: 'B, C' },
    ]);
  });
});
