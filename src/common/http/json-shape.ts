import type { DomainError } from '../errors/domain-error';
import {
  JsonTooDeepError,
  JsonTooManyItemsError,
  JsonTooManyKeysError,
  JsonTooManyValuesError,
} from './http.errors';

/*
 * The shape of a JSON request body, bounded before it is parsed (400 `bad_request` past each,
 * naming it). Parsing, transforming and validating a body cost time per value, and the cost of an
 * object grew with the square of its keys in class-transformer (one object of 80,000
 * keys held the API process for 11 s, whatever the route); past the bounds a body is not parsed.
 * - Keys and items: twice the longest collection the API takes (1000 calendar override dates), so
 *   that an attribute's own error comes first ("more than 1000 dates").
 * - Values: what bounds the work. JSON.parse is the costliest step left: about 1 µs a value when
 *   objects have distinct keys (each key a new V8 hidden class), more than linear past 20,000; at
 *   20,000 the costliest body found took 10-20 ms of CPU to parse and validate. A real body has a
 *   few hundred values. What the API's own limits would allow at their extremes is refused: a form
 *   of 100 fields of 100 options (10,800 values), a calendar of 1000 override dates of 3 or more
 *   intervals each (1000 dates of 2 intervals are 8,000 values).
 * - Depth: nothing the API takes is deeper than 4 levels.
 * Within the bounds the costliest bodies found take a few ms of CPU to parse and validate
 * (test/hardening/body-shape.e2e-spec.ts asserts under 20 ms).
 */
/** Deepest nesting of arrays and objects. */
export const MAX_JSON_DEPTH = 32;
/** Most keys of one object. */
export const MAX_JSON_KEYS = 2000;
/** Most items of one array. */
export const MAX_JSON_ITEMS = 2000;
/** Most values in all: objects, arrays, strings, numbers, booleans and nulls, the body included. */
export const MAX_JSON_VALUES = 10_000;

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
  /**
   * Whether a key may be named after a member of Object.prototype (`toString`, `valueOf`, …): one
   * that is, or one written with escapes, which may spell one.
   */
  prototypeMemberKeys: boolean;
}

/** The members of Object.prototype, which an own key of a parsed object would shadow. */
export const PROTOTYPE_MEMBERS: ReadonlySet<string> = new Set(
  Object.getOwnPropertyNames(Object.prototype),
);
/** A key written longer than this spells none of them, even escaped (`\uXXXX`, 6 characters each). */
const LONGEST_ESCAPED_MEMBER = 6 * Math.max(...[...PROTOTYPE_MEMBERS].map((m) => m.length));

/**
 * Whether the JSON text `text` is past one of the bounds, read in one pass over its characters
 * without building anything. Text that is not JSON is left for the parser to refuse (whatever
 * this answers for it).
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
      if (++values > MAX_JSON_VALUES) return refuse(new JsonTooManyValuesError(MAX_JSON_VALUES));
    }
    switch (c) {
      case QUOTE:
        stringStart = i + 1;
        i = stringEnd = closingQuote(text, i);
        if (stringEnd - stringStart > longestString) longestString = stringEnd - stringStart;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (isArray.length >= MAX_JSON_DEPTH) return refuse(new JsonTooDeepError(MAX_JSON_DEPTH));
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
        if (++entries[top] > MAX_JSON_KEYS) return refuse(new JsonTooManyKeysError(MAX_JSON_KEYS));
        if (++values > MAX_JSON_VALUES) return refuse(new JsonTooManyValuesError(MAX_JSON_VALUES));
        break;
      case COMMA:
        if (top < 0 || !isArray[top]) break;
        if (++entries[top] > MAX_JSON_ITEMS)
          return refuse(new JsonTooManyItemsError(MAX_JSON_ITEMS));
        if (++values > MAX_JSON_VALUES) return refuse(new JsonTooManyValuesError(MAX_JSON_VALUES));
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
