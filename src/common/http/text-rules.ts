import { isEmail } from 'class-validator';

/*
 * What text the API stores. Never: the C0 controls but TAB, LF and CR, DEL, the C1 controls,
 * U+2028/U+2029 and the bidi embeddings, overrides and isolates (they reorder what a reader sees:
 * "Trojan Source"); the bidi marks and zero-width joiners stay (right-to-left names, emoji need
 * them). One-line attributes take no line break or TAB either; multi-line ones keep CR, LF and TAB.
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

/** Text without control, separator or bidi control characters (line breaks and tabs allowed). */
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

/** What a mailer reads as more than one plain address (lists, groups, names, comments, quotes). */
const ADDRESS_SYNTAX = /[\s"(),:;<>[\]\\]/;

/** One e-mail address (isEmail), and nothing a mailer could read as a list, a group or a header. */
export function isEmailAddress(text: string): boolean {
  return (
    text.length <= MAX_EMAIL_LENGTH &&
    isSingleLineText(text) &&
    !ADDRESS_SYNTAX.test(text) &&
    isEmail(text)
  );
}

/**
 * A stored value as one line (rows written before these rules): each run refused becomes a space.
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
