import {
  isEmailAddress,
  isMultiLineText,
  isPhoneNumber,
  isSingleLineText,
  toSingleLine,
} from './text-rules';

/** Text people write, in every script: one line, fine everywhere. */
const NAMES = [
  'Ada',
  'Zoë',
  'José María',
  'Ó Súilleabháin',
  "O'Brien",
  'O’Brien',
  'Anne-Marie',
  'Jean‑Luc', // a non-breaking hyphen
  '王小明',
  '山田 太郎',
  '김민준',
  'Nguyễn Thị Minh Khai',
  'Đặng',
  'محمد عبد الله',
  'שרה כהן',
  'שרה\u200F (RLM)',
  'علي\u061C', // the Arabic letter mark
  'Ελένη',
  'Влади́мир', // a combining acute accent
  'देवनागरी',
  'Ada 😀',
  'Family 👨\u200D👩\u200D👧', // zero-width joiners
  'Flag 🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}', // tag characters
  'Room\u00A0A', // a no-break space
  'Café & Co. <Main St.> #2 (50%)',
  '',
];

/** Characters no attribute takes, by name. */
const ALWAYS_REFUSED: [string, string][] = [
  ['NUL', '\u0000'],
  ['SOH', '\u0001'],
  ['BEL', '\u0007'],
  ['BS', '\u0008'],
  ['VT', '\u000B'],
  ['FF', '\u000C'],
  ['SO', '\u000E'],
  ['ESC', '\u001B'],
  ['US', '\u001F'],
  ['DEL', '\u007F'],
  ['PAD (C1)', '\u0080'],
  ['NEL (C1)', '\u0085'],
  ['CSI (C1)', '\u009B'],
  ['APC (C1)', '\u009F'],
  ['LINE SEPARATOR', '\u2028'],
  ['PARAGRAPH SEPARATOR', '\u2029'],
  ['LEFT-TO-RIGHT EMBEDDING', '\u202A'],
  ['RIGHT-TO-LEFT EMBEDDING', '\u202B'],
  ['POP DIRECTIONAL FORMATTING', '\u202C'],
  ['LEFT-TO-RIGHT OVERRIDE', '\u202D'],
  ['RIGHT-TO-LEFT OVERRIDE', '\u202E'],
  ['LEFT-TO-RIGHT ISOLATE', '\u2066'],
  ['RIGHT-TO-LEFT ISOLATE', '\u2067'],
  ['FIRST STRONG ISOLATE', '\u2068'],
  ['POP DIRECTIONAL ISOLATE', '\u2069'],
];

const LINE_BREAKS: [string, string][] = [
  ['CR', '\r'],
  ['LF', '\n'],
  ['CR LF', '\r\n'],
  ['TAB', '\t'],
];

describe('isSingleLineText', () => {
  it.each(NAMES)('takes %j', (text) => {
    expect(isSingleLineText(text)).toBe(true);
  });

  it.each([...ALWAYS_REFUSED, ...LINE_BREAKS])('refuses %s, anywhere in the text', (_, c) => {
    for (const text of [c, `Ada${c}`, `${c}Ada`, `Ada${c}Lovelace`])
      expect(isSingleLineText(text)).toBe(false);
  });

  it('refuses the injection of issue 20 (a CR/LF in a first name)', () => {
    expect(isSingleLineText('Ada\r\nPlease pay at http://evil.example')).toBe(false);
  });
});

describe('isMultiLineText', () => {
  it.each([...NAMES, 'First line.\r\nSecond line.\n\n\tIndented.', '\n', 'a\rb'])(
    'takes %j',
    (text) => {
      expect(isMultiLineText(text)).toBe(true);
    },
  );

  it.each(ALWAYS_REFUSED)('refuses %s, anywhere in the text', (_, c) => {
    for (const text of [c, `Note${c}`, `${c}Note`, `Line one\r\n${c}Line two`])
      expect(isMultiLineText(text)).toBe(false);
  });
});

describe('isPhoneNumber', () => {
  it.each([
    '+1 (555) 010-0199',
    '+44 20 7946 0958',
    '555.010.0199',
    '555-0100',
    '+1 555 0100',
    '+33 1 23 45 67 89',
    '(020) 7946 0958',
    '020/7946 0958',
    '+81-3-1234-5678',
    '5550100',
    '0',
    '1'.repeat(64),
    '555-0100 ext. 12',
    '555-0100 ext 12',
    '555-0100 EXT.12',
    '555-0100 x12',
    '555-0100x12',
    '555-0100 X 12',
  ])('takes %j', (phone) => {
    expect(isPhoneNumber(phone)).toBe(true);
  });

  it.each([
    ['nothing', ''],
    ['no digit', '+()-./ '],
    ['letters', 'call me'],
    ['a word with digits', 'office 555-0100'],
    ['a plus inside', '555+0100'],
    ['two pluses', '++1 555 0100'],
    ['a list', '555-0100, 555-0101'],
    ['a semicolon', '555-0100;555-0101'],
    ['a hash', '555-0100 #12'],
    ['an extension without digits', '555-0100 ext'],
    ['an extension first', 'x12'],
    ['two extensions', '555 x1 x2'],
    ['a tel: URI', 'tel:+15550100'],
    ['full-width digits', '５５５-０１００'],
    ['Arabic-Indic digits', '٥٥٥٠١٠٠'],
    ['a no-break space', '555\u00A00100'],
    ['a line break', '555\r\n0100'],
    ['a tab', '555\t0100'],
    ['NUL', '555\u00000100'],
    ['a bidi override', '555\u202E0100'],
    ['65 characters', '1'.repeat(65)],
  ])('refuses %s', (_, phone) => {
    expect(isPhoneNumber(phone)).toBe(false);
  });

  it('answers at once for a long near-miss (no catastrophic backtracking)', () => {
    const started = Date.now();
    expect(isPhoneNumber(`${'1 '.repeat(8000)}a`)).toBe(false);
    expect(isPhoneNumber(`1${' x1'.repeat(5000)}`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(50);
  });
});

describe('isEmailAddress', () => {
  it.each([
    'ada@example.com',
    'Ada.Lovelace@Example.COM',
    'ada+bookings@example.co.uk',
    "o'brien@example.ie",
    'anne-marie_01@mail.example-site.org',
    'zoë@example.test',
    '用户@例子.广告',
    'ada@xn--bcher-kva.example',
    `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
  ])('takes %j', (email) => {
    expect(isEmailAddress(email)).toBe(true);
  });

  it.each([
    ['nothing', ''],
    ['no domain', 'ada@'],
    ['no local part', '@example.com'],
    ['no dot in the domain', 'ada@localhost'],
    ['not an address', 'front desk'],
    ['a list', 'a@x.test,b@x.test'],
    ['a list with a space', 'a@x.test, b@x.test'],
    ['a list with a semicolon', 'a@x.test;b@x.test'],
    ['a list on two lines', 'a@x.test\r\nb@x.test'],
    ['a header after a line feed', 'a@x.test\nBcc: b@x.test'],
    ['a group', 'team: a@x.test, b@x.test;'],
    ['an empty group', 'team:;'],
    ['a display name', 'Ada <a@x.test>'],
    ['angle brackets', '<a@x.test>'],
    ['a comment', 'a@x.test (Ada)'],
    ['a quoted local part', '"ada"@x.test'],
    ['a quoted local part holding a list', '"a@x.test,b"@y.test'],
    ['a quoted local part holding a control', '"a\u0001"@x.test'],
    ['an IP literal', 'ada@[127.0.0.1]'],
    ['a space inside', 'a da@x.test'],
    ['a tab inside', 'ada\t@x.test'],
    ['NUL', 'ada\u0000@x.test'],
    ['a C1 control', 'ada\u0085@x.test'],
    ['a bidi override', 'a\u202Eb@x.test'],
    ['a bidi isolate', 'ada@x\u2066.test'],
    ['255 characters', `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`],
  ])('refuses %s', (_, email) => {
    expect(isEmailAddress(email)).toBe(false);
  });
});

describe('toSingleLine', () => {
  it.each([
    ['Ada', 'Ada'],
    ['  Ada  ', 'Ada'],
    ['Ada\r\nPlease pay at http://evil.example', 'Ada Please pay at http://evil.example'],
    ['Room\u0000A\tB', 'Room A B'],
    ['Consultation\u202Eexe.', 'Consultation exe.'],
    ['Test\u0085Clinic\u2028', 'Test Clinic'],
    ['\r\n\u202E\u0000', ''],
    ['a\r\n\r\n\t\u0007b', 'a b'],
    ['Family 👨\u200D👩\u200D👧 שרה\u200F', 'Family 👨\u200D👩\u200D👧 שרה\u200F'],
  ])('%j → %j', (text, line) => {
    expect(toSingleLine(text)).toBe(line);
    expect(isSingleLineText(toSingleLine(text))).toBe(true);
  });
});
