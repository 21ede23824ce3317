import type { DomainError } from '../errors/domain-error';
import { JsonShapeError } from './http.errors';

/*
 * A JSON request body's shape is bounded before it is parsed (400 `bad_request` past each bound,
 * naming it): parsing and validating cost time per value (JSON.parse ~1 µs a value with distinct
 * keys, more than linear past 20,000). Keys and items: twice the longest collection the API takes
 * (1000 override dates), so that the attribute's own error comes first. Values: a real body has a
 * few hundred; the extremes the API's own limits allow (100 fields of 100 options: 10,800) are
 * refused. Depth: nothing the API takes is deeper than 4. Within the bounds the costliest bodies
 * take a few ms (test/hardening/body-shape.e2e-spec.ts asserts under 20 ms).
 */
export const MAX_JSON_DEPTH = 32;
/** Per object. */
export const MAX_JSON_KEYS = 2000;
/** Per array. */
export const MAX_JSON_ITEMS = 2000;
/** Objects, arrays, strings, numbers, booleans and nulls, the body included. */
export const MAX_JSON_VALUES = 10_000;

const tooDeep = () =>
  new JsonShapeError(`The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
const tooManyKeys = () =>
  new JsonShapeError(`An object in the body has more than ${MAX_JSON_KEYS} keys.`);
const tooManyItems = () =>
  new JsonShapeError(`An array in the body has more than ${MAX_JSON_ITEMS} items.`);
const tooManyValues = () =>
  new JsonShapeError(`The JSON body has more than ${MAX_JSON_VALUES} values.`);

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

export interface JsonShape {
  /** The first bound the text crosses. */
  problem?: DomainError;
  /** The length of its longest string as written (escapes make it longer, never shorter). */
  longestString: number;
  /** Whether a key is, or may spell with escapes, a member of Object.prototype (`toString`). */
  prototypeMemberKeys: boolean;
}

/** The members of Object.prototype, which an own key of a parsed object would shadow. */
export const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(
  Object.getOwnPropertyNames(Object.prototype),
);
/** A key written longer than this spells none of them, even escaped (`\uXXXX`, 6 characters each). */
const LONGEST_ESCAPED_MEMBER = 6 * Math.max(...[...PROTOTYPE_MEMBERS].map((m) => m.length));

/**
 * Whether `text` is past one of the bounds, in one pass over its characters without building
 * anything. Text that is not JSON is left for the parser to refuse.
 */
export function jsonShape(text: string): JsonShape {
  let longestString = 0;
  let prototypeMemberKeys = false;
  // The last string read: a key when a colon follows.
  let stringStart = 0;
  let stringEnd = 0;
  const refuse = (problem: DomainError): JsonShape => ({
    problem,
    longestString,
    prototypeMemberKeys,
  });
  // Per open object or array, innermost last: whether it is an array, and its keys or items so far.
  const isArray: boolean[] = [];
  const entries: number[] = [];
  let values = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 0x20) continue; // whitespace
    const top = isArray.length - 1;
    if (top >= 0 && isArray[top] && entries[top] === 0 && c !== CLOSE_BRACKET) {
      entries[top] = 1; // the first item of an array; each further one follows a comma
      if (++values > MAX_JSON_VALUES) return refuse(tooManyValues());
    }
    switch (c) {
      case QUOTE:
        stringStart = i + 1;
        i = stringEnd = closingQuote(text, i);
        if (stringEnd - stringStart > longestString) longestString = stringEnd - stringStart;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (isArray.length >= MAX_JSON_DEPTH) return refuse(tooDeep());
        isArray.push(c === OPEN_BRACKET);
        entries.push(0);
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        isArray.pop();
        entries.pop();
        break;
      case COLON: // one per key of an object
        if (top < 0 || isArray[top]) break;
        if (!prototypeMemberKeys && stringEnd - stringStart <= LONGEST_ESCAPED_MEMBER) {
          const key = text.slice(stringStart, stringEnd);
          prototypeMemberKeys = PROTOTYPE_MEMBERS.has(key) || key.includes('\\');
        }
        if (++entries[top] > MAX_JSON_KEYS) return refuse(tooManyKeys());
        if (++values > MAX_JSON_VALUES) return refuse(tooManyValues());
        break;
      case COMMA:
        if (top < 0 || !isArray[top]) break;
        if (++entries[top] > MAX_JSON_ITEMS) return refuse(tooManyItems());
        if (++values > MAX_JSON_VALUES) return refuse(tooManyValues());
        break;
    }
  }
  return { longestString, prototypeMemberKeys };
}

/** The index of the quote that closes the string opened at `open` (the text's length if none). */
function closingQuote(text: string, open: number): number {
  let i = open;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i < 0) return text.length;
    // Escaped when an odd number of backslashes precede it. Each backward scan stops at the
    // previous quote at the latest, so all of them read the text once in all.
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}
