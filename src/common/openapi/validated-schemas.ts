import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { groupBy } from '../collections/group-by';
import { SUPPORTED_YEARS_RULE } from '../time/calendar-dates';

/** Where `@ApiProperty` keeps a property's options (@nestjs/swagger's DECORATORS.API_MODEL_PROPERTIES). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/*
 * One source for validation and documentation: every class class-validator validates is described
 * to @nestjs/swagger from its validators, which decide the type, the limits and whether an
 * attribute is required; a written `@ApiProperty` completes them. Runtime metadata, not the CLI
 * plugin: ts-jest, `nest build` and `openapi:write` build the very same document.
 */

/** class-transformer's `@Type()` records (its package exports no path to them but this one). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: typeof import('class-transformer/types/storage').defaultMetadataStorage;
};

type Class = abstract new (...args: never[]) => unknown;

type Schema = SchemaObject & { const?: unknown };

/** What the service's own validators (src/common/http/attributes.ts and the DTOs) accept. */
const CUSTOM: Record<string, Schema> = {
  isNotBlank: { minLength: 1, description: 'Not blank.' },
  isNotCleared: { minLength: 1, description: 'May be left out, not emptied.' },
  singleLine: { description: 'One line of text.' },
  multiLine: { description: 'Text; lines may be separated by CR, LF or TAB.' },
  phone: { description: 'A phone number (digits, spaces and + ( ) - . /), or "" for none.' },
  emailAddress: { format: 'email' },
  isEmailOrNone: { description: 'One e-mail address, or "" for none.' },
  isUrlOrEmpty: {
    maxLength: 2048,
    description: 'An absolute http(s) URL on one line, or "" for none.',
  },
  isCalendarDate: {
    type: 'string',
    format: 'date',
    example: '2030-06-03',
    description: SUPPORTED_YEARS_RULE,
  },
  isMoney: {
    oneOf: [
      { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' },
      { type: 'number', minimum: 0 },
    ],
    description: 'An amount of money, not negative, at most two decimals: `10`, `10.5`, `"10.50"`.',
  },
  isPaymentAmount: {
    oneOf: [{ type: 'string', pattern: '^-?\\d+(\\.\\d{1,2})?$' }, { type: 'number' }],
    description: 'An amount with at most two decimals; negative for a refund.',
  },
};

/** The JSON Schema keywords of each built-in class-validator constraint, given its first. */
const BUILT_IN = new Map<string, (first: unknown) => Schema>([
  ['isString', () => ({ type: 'string' })],
  ['isInt', () => ({ type: 'integer' })],
  ['isNumber', () => ({ type: 'number' })],
  ['isBoolean', () => ({ type: 'boolean' })],
  ['isArray', () => ({ type: 'array' })],
  ['isObject', () => ({ type: 'object' })],
  ['maxLength', (first) => ({ maxLength: first as number })],
  ['minLength', (first) => ({ minLength: first as number })],
  ['max', (first) => ({ maximum: first as number })],
  ['min', (first) => ({ minimum: first as number })],
  ['isIn', (first) => ({ enum: [...(first as unknown[])] })],
  ['equals', (first) => ({ enum: [first] })],
  ['matches', (first) => ({ pattern: (first as RegExp).source })],
  ['arrayMaxSize', (first) => ({ maxItems: first as number })],
  ['arrayMinSize', (first) => ({ minItems: first as number })],
  ['isEmail', () => ({ type: 'string', format: 'email' })],
]);

function constraintSchema(meta: ValidationMetadata): Schema | undefined {
  if (!meta.name) return undefined;
  const built = BUILT_IN.get(meta.name);
  return built ? built((meta.constraints as unknown[] | undefined)?.[0]) : CUSTOM[meta.name];
}

function merge(into: Schema, add: Schema): void {
  const description = [into.description, add.description].filter(Boolean).join(' ');
  Object.assign(into, add);
  if (description) into.description = description;
}

/** The schema of one property from its validators, and whether it must be given. */
function propertySchema(
  target: Class,
  property: string,
  metas: ValidationMetadata[],
): { schema: Schema; required: boolean } {
  const schema: Schema = {};
  const items: Schema = {};
  let optional = false;
  let required = false;
  let nested = false;
  for (const meta of metas) {
    if (meta.type === 'conditionalValidation') optional = true;
    else if (meta.type === 'isDefined' || meta.name === 'isDefined') required = true;
    else if (meta.type === 'nestedValidation') nested = true;
    if (meta.name === 'isNotBlank') required = true;
    const part = constraintSchema(meta);
    if (part) merge(meta.each ? items : schema, part);
  }
  if (nested) {
    const type = defaultMetadataStorage.findTypeMetadata(target, property)?.typeFunction();
    if (type) return { schema: { ...schema, type: type as unknown as 'object' }, required };
  }
  if (schema.type === 'array' && Object.keys(items).length > 0) schema.items = items;
  if (schema.type === undefined) {
    // `@Allow()` only: the type the property is declared with, when it says one.
    const design = Reflect.getMetadata(
      'design:type',
      target.prototype as object,
      property,
    ) as unknown;
    if (design === String) schema.type = 'string';
    else if (design === Number) schema.type = 'number';
    else if (design === Boolean) schema.type = 'boolean';
    else if (design === Array) schema.type = 'array';
  }
  return { schema, required: required || (!optional && metas.some((m) => m.name !== undefined)) };
}

/** Describes every class class-validator knows (see above). Call before building the document. */
export function describeValidatedClasses(): void {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<Class, ValidationMetadata[]>;
  };
  for (const target of storage.validationMetadatas.keys()) describeValidatedClass(target);
}

const described = new WeakSet<Class>();

function describeValidatedClass(target: Class): void {
  if (described.has(target)) return;
  described.add(target);
  const metas = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  for (const [property, propertyMetas] of groupBy(metas, (meta) => meta.propertyName)) {
    const checked = propertySchema(target, property, propertyMetas);
    const { schema } = checked;
    const written = Reflect.getMetadata(
      API_MODEL_PROPERTIES,
      target.prototype as object,
      property,
    ) as Schema | undefined;
    // A written description says the rule in full; the validators' words are for the others.
    const description = written?.description ?? schema.description;
    // `@Allow()` only: the use case checks it; the written description says whether it is required.
    const required = propertyMetas.every((meta) => meta.type === 'whitelistValidation')
      ? written !== undefined && (written as { required?: boolean }).required !== false
      : checked.required;
    const options: Schema & { isArray?: boolean } = {
      ...schema,
      ...(written ?? {}),
      ...(description ? { description } : {}),
      required: required as unknown as string[],
    };
    // The type the validators check wins over the one TypeScript declares (`number` → integer).
    if (schema.type !== undefined) {
      options.type = schema.type;
      delete options.isArray;
    }
    if (schema.items !== undefined) options.items = schema.items;
    ApiProperty(options as ApiPropertyOptions)(target.prototype as object, property);
  }
}
