import { Transform } from 'class-transformer';
import { applyDecorators } from '@nestjs/common';
import {
  IsString,
  MaxLength,
  ValidateBy,
  ValidateIf,
  type ValidationOptions,
  isURL,
} from 'class-validator';
import { isMoney } from '../money/money';
import { isCalendarDate } from '../time/calendar-dates';
import { isEmailAddress, isMultiLineText, isPhoneNumber, isSingleLineText } from './text-rules';

/*
 * class-validator runs a property's decorators from the bottom up: the type check (`@IsString()`,
 * written last) fails first, and the rules above it only see values of the right type.
 */

/** Absent attributes are not validated (nor changed); `null` is, so the type check refuses it. */
export const Optional = () => ValidateIf((_: object, value: unknown) => value !== undefined);

/** An attribute that may be left out, else checked by `validators` (in their stacking order). */
export const IfGiven = (...validators: PropertyDecorator[]) =>
  applyDecorators(...validators.reverse(), Optional());

/** Absent or `null` attributes are not validated: `null` clears the attribute. */
export const OptionalNullable = () =>
  ValidateIf((_: object, value: unknown) => value !== undefined && value !== null);

/** Strings arrive trimmed; other values are left for the validators to refuse. */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/**
 * The constraint `name` (which chooses the error). The message is never empty: class-validator
 * attaches a constraint's `context` only to a failure with a message.
 */
function rule(
  name: string,
  validate: (value: unknown) => boolean,
  message: string,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy({ name, validator: { validate, defaultMessage: () => message } }, options);
}

const hasText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** A required text attribute of a create request (`required_<attribute>` when missing or blank). */
export const IsNotBlank = (options?: ValidationOptions) =>
  rule('isNotBlank', hasText, '$property is blank', options);

/**
 * A required text attribute of an update: it may be left out, not emptied (`invalid_<attribute>`).
 */
export const IsNotCleared = (options?: ValidationOptions) =>
  rule('isNotCleared', hasText, '$property is blank', options);

/**
 * A rule of text-rules.ts: it refuses what is not a string too, so that it may stand alone (`each:
 * true` for lists). A failure is `invalid_<attribute>` unless the options carry a context.
 */
const textRule = (name: string, test: (text: string) => boolean, options?: ValidationOptions) =>
  rule(
    name,
    (value) => typeof value === 'string' && test(value),
    `$property is not ${name}`,
    options,
  );

/** One line of text: no line break, TAB, control, separator or bidi control character. */
export const IsSingleLine = (options?: ValidationOptions) =>
  textRule('singleLine', isSingleLineText, options);

/** Text that may span lines (CR, LF, TAB), without any other control or bidi character. */
export const IsMultiLine = (options?: ValidationOptions) =>
  textRule('multiLine', isMultiLineText, options);

/** A phone number (phone characters only), or "" (none). */
export const IsPhone = (options?: ValidationOptions) =>
  textRule('phone', (text) => text === '' || isPhoneNumber(text), options);

/** One e-mail address: never a list, a group, a display name or a header. */
export const IsEmailAddress = (options?: ValidationOptions) =>
  textRule('emailAddress', isEmailAddress, options);

/* A name (of a catalog row, a form, a field): trimmed, one line of at most 255 characters. */

/** The name of a create request (`required_name` when missing or blank). */
export const IsName = () =>
  applyDecorators(Trim(), IsString(), MaxLength(255), IsNotBlank(), IsSingleLine());

/** The name of an update: it may be left out, not emptied. */
export const IsNameUpdate = () =>
  applyDecorators(Trim(), Optional(), IsString(), MaxLength(255), IsNotCleared(), IsSingleLine());

/** An amount of money: `10`, `10.5`, `"10.50"`; not negative, at most two decimals. */
export const IsMoney = (options?: ValidationOptions) =>
  rule('isMoney', isMoney, '$property is not money', options);

/** `#RRGGBB`, or a color name (`red`, `lightblue`): what labels and types are drawn in. */
export const COLOR_PATTERN = /^(#[0-9a-f]{6}|[a-z]{3,20})$/i;

/** A boolean query parameter: `true`/`1` and `false`/`0`; anything else is left to be refused. */
export const BooleanQuery = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  );

/** An absolute http(s) URL of at most 2048 characters on one line, or "" (none): images, links. */
export const IsUrlOrEmpty = (options?: ValidationOptions) =>
  rule(
    'isUrlOrEmpty',
    (value) =>
      value === '' ||
      (typeof value === 'string' &&
        value.length <= 2048 &&
        isSingleLineText(value) &&
        isURL(value, { protocols: ['http', 'https'], require_protocol: true })),
    '$property is not an http(s) URL',
    options,
  );

/** `YYYY-MM-DD` naming a day of the calendar (`2026-02-30` is not one). */
export const IsCalendarDate = () =>
  ValidateBy({ name: 'isCalendarDate', validator: { validate: isCalendarDate } });
