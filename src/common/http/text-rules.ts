import { isEmail } from 'class-validator';

/*
 * What text the API stores. One set of predicates, used by the DTO decorators
 * (attributes.ts), the booking checks, the form answers and, to clean rows stored before these
 * rules, the notifications.
 *
 * - Never, in any attribute: the C0 controls but TAB, LF and CR (NUL, BEL, ESC, VT, FF…), DEL,
 *   the C1 controls U+0080–U+009F (NEL, CSI…), the line and paragraph separators U+2028/U+2029,
 *   and the bidi embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069 (they reorder
 *   what a reader sees: "Trojan Source"). The bidi marks U+200E, U+200F and U+061C stay allowed:
 *   they only set the direction of neutral characters next to them, and right-to-left names
 *   need them; so do the zero-width joiners (emoji sequences, Persian).
 * - One-line attributes (names, e-mail, phone, categories, locations, options, one-line form
 *   answers) take no line break or TAB either. Multi-line ones (notes, descriptions, cancel notes,
 *   textarea and address answers) keep CR, LF and TAB.
 * - A phone number is ASCII phone characters only: digits, spaces, `+ ( ) - . /`, a `+` only
 *   first, at least one digit, optionally an extension (`ext`, `ext.` or `x`, then digits); at
 *   most 64 characters (the columns).
 * - An e-mail is one address, as a mailer reads it: no display name, list, group, comment, quoted
 *   local part or white space; class-validator's isEmail (a dotted domain, UTF-8 local part
 *   allowed), at most 254 characters.
 */

/** Whether the UTF-16 code unit is refused in every attribute. */
function alwaysRefused(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** TAB, LF, CR: what only a multi-line attribute takes. */
const isLineBreakOrTab = (code: number) => code === 0x09 || code === 0x0a || code === 0x0d;

/** Text that holds no control, separator or bidi control character (line breaks and tabs allowed). */
export function isMultiLineText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (alwaysRefused(text.charCodeAt(i))) return false;
  return true;
}

/** One line of text: a multi-line text without line breaks and tabs. */
export function isSingleLineText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (alwaysRefused(code) || isLineBreakOrTab(code)) return false;
  }
  return true;
}

/** The longest phone number the columns (appointments, orders) hold. */
export const MAX_PHONE_LENGTH = 64;

/** The lookahead asks for a digit; each part is linear to match (no nested repetition). */
const PHONE = /^(?=[^0-9]*[0-9])\+?[0-9 ()./-]+(?: ?(?:ext\.?|x) ?[0-9]+)?$/i;

/** A phone number as typed: `+1 (555) 010-0199`, `+44 20 7946 0958`, `555.010.0199 ext. 12`. */
export function isPhoneNumber(text: string): boolean {
  return text.length <= MAX_PHONE_LENGTH && PHONE.test(text);
}

/** The longest e-mail address (RFC 5321's path limit, and the columns). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * What makes a mailer's address parser read more than one plain address: separators of lists,
 * groups, display names, comments, quoted strings, escapes; and white space.
 */
const ADDRESS_SYNTAX = /[\s"(),:;<>[\]\\]/;

/** One e-mail address, and nothing a mailer could read as a list, a group or a header. */
export function isEmailAddress(text: string): boolean {
  return (
    text.length <= MAX_EMAIL_LENGTH &&
    isSingleLineText(text) &&
    !ADDRESS_SYNTAX.test(text) &&
    isEmail(text)
  );
}

/**
 * A stored value as one line of text (rows written before these rules): each run of line
 * breaks, tabs, controls, separators and bidi controls becomes one space; trimmed.
 */
export function toSingleLine(text: string): string {
  let out = '';
  let gap = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (alwaysRefused(code) || isLineBreakOrTab(code)) {
      gap = true;
      continue;
    }
    if (gap) out += ' ';
    gap = false;
    out += text[i];
  }
  return out.trim();
}
