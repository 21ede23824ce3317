import { shown } from '../../common/errors/domain-error';
import { isMultiLineText, isSingleLineText } from '../../common/http/text-rules';
import {
  InvalidFieldValueError,
  RepeatedFieldError,
  RequiredFieldError,
  UnknownFieldError,
} from './field-value.errors';
import type { FieldType } from './form-field.entity';

/** A question an appointment may answer: a live field of one of its type's live forms. */
export interface FieldDefinition {
  id: number;
  formId: number;
  type: FieldType;
  required: boolean;
  options: string[] | null;
  /** Fields of a hidden form are for admins only: clients neither see nor answer them. */
  formHidden: boolean;
}

/** One `{id, value}` of a request's `fields`, as the client sent it. */
export interface FieldValueInput {
  id: unknown;
  value: unknown;
}

/** An answer to store. */
export interface FieldValue {
  fieldId: number;
  formId: number;
  value: string;
}

export const MAX_FIELD_VALUE_LENGTH = 10000;

/** Separates the chosen options of a checkboxlist answer (the contract: comma, then one space). */
export const CHECKBOXLIST_SEPARATOR = ', ';

const NOT_AN_OPTION = "it must be one of the field's options";
const NOT_SEPARATED = `a checkboxlist value lists its options separated by "${CHECKBOXLIST_SEPARATOR}"`;
const NOT_A_URL = 'it must be an http or https URL';
const NOT_YES_OR_NO = 'it must be "yes" or "no"';
const NOT_TEXT = 'it must be a string';
const NOT_ONE_LINE = 'it must be one line of text without control characters';
const NOT_CLEAN_TEXT = 'it must be text without control characters';

/** The answers that may span lines (a postal address is written on lines); others are one line. */
const MULTI_LINE_TYPES: ReadonlySet<FieldType> = new Set<FieldType>(['textarea', 'address']);

/**
 * Checks the values a booking gives for `fields` (all the fields its appointment type asks, in form
 * then field order) and returns the answers to store, trimmed, in that order. Unknown or repeated
 * ids are refused before anything else; then each field in order: its value is checked (admins
 * too), and a required field of a visible form must be answered unless booking as admin.
 */
export function validateFieldValues(
  fields: FieldDefinition[],
  values: FieldValueInput[],
  mode: { asAdmin: boolean },
): FieldValue[] {
  const byId = new Map(fields.map((field) => [field.id, field]));
  const given = new Map<number, unknown>();
  for (const input of values) {
    const id = positiveInteger(input.id);
    const field = id === undefined ? undefined : byId.get(id);
    if (!field || (field.formHidden && !mode.asAdmin)) throw new UnknownFieldError(shown(input.id));
    if (given.has(field.id)) throw new RepeatedFieldError(field.id);
    given.set(field.id, input.value);
  }

  const answers: FieldValue[] = [];
  for (const field of fields) {
    const value = answerOf(field, given.get(field.id));
    // A required checkbox is one that must be ticked ("I accept the terms").
    const answered = value !== undefined && !(field.type === 'checkbox' && value === 'no');
    if (field.required && !field.formHidden && !mode.asAdmin && !answered)
      throw new RequiredFieldError(field.id);
    if (value !== undefined) answers.push({ fieldId: field.id, formId: field.formId, value });
  }
  return answers;
}

/** `12` or `"12"`; anything else names no field. */
function positiveInteger(id: unknown): number | undefined {
  const n = typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id) ? Number(id) : id;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** What to store for `raw`, or undefined when the field is not answered (absent, null, blank). */
function answerOf(field: FieldDefinition, raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const invalid = (reason: string) => new InvalidFieldValueError(field.id, reason);

  if (field.type === 'yesno' || field.type === 'checkbox') {
    if (typeof raw === 'boolean') return raw ? 'yes' : 'no';
    if (typeof raw !== 'string') throw invalid(NOT_YES_OR_NO);
    const word = raw.trim().toLowerCase();
    if (word === '') return undefined;
    if (word !== 'yes' && word !== 'no') throw invalid(NOT_YES_OR_NO);
    return word;
  }

  const value = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
  if (typeof value !== 'string')
    throw invalid(field.type === 'checkboxlist' ? NOT_SEPARATED : NOT_TEXT);
  const text = value.trim();
  if (text === '') return undefined;
  if (text.length > MAX_FIELD_VALUE_LENGTH)
    throw invalid(`it must be at most ${MAX_FIELD_VALUE_LENGTH} characters`);
  // Before the URL check: the URL parser drops tabs and line breaks without a word.
  if (MULTI_LINE_TYPES.has(field.type)) {
    if (!isMultiLineText(text)) throw invalid(NOT_CLEAN_TEXT);
  } else if (!isSingleLineText(text)) throw invalid(NOT_ONE_LINE);

  switch (field.type) {
    case 'dropdown':
      if (!(field.options ?? []).includes(text)) throw invalid(NOT_AN_OPTION);
      return text;
    case 'checkboxlist': {
      const reason = checkboxlistProblem(field.options ?? [], text);
      if (reason) throw invalid(reason);
      return text;
    }
    case 'file':
      if (!isHttpUrl(text)) throw invalid(NOT_A_URL);
      return text;
    default:
      return text;
  }
}

/** Why `text` is not a list of distinct options joined by ", ", or undefined when it is one. */
function checkboxlistProblem(optionList: string[], text: string): string | undefined {
  const options = new Set(optionList);
  if (options.has(text)) return undefined;
  const chosen = new Set<string>();
  for (const choice of text.split(CHECKBOXLIST_SEPARATOR)) {
    if (!options.has(choice)) {
      // "A,B", "A,  B", "A, , B": options run together or spaced wrong, rather than unknown.
      const badlySeparated = choice === '' || choice !== choice.trim() || choice.includes(',');
      return badlySeparated ? NOT_SEPARATED : `"${choice}" is not one of the field's options`;
    }
    if (chosen.has(choice)) return `it lists "${choice}" more than once`;
    chosen.add(choice);
  }
  return undefined;
}

/** Files are hosted elsewhere: the value is where, as an absolute http(s) URL with a host. */
function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
