import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';

/*
 * A response view is its schema: viewSchema registers it for the document, and ViewType derives
 * the TypeScript type from the same fields, so the two cannot drift apart. The contract test
 * (test/support/openapi-contract.ts) checks every answer the e2e suites get against the schema.
 */

export type JsonSchema = Record<string, unknown>;

declare const valueType: unique symbol;

/** A field's schema, typed (for the compiler only) with the value it describes. */
export type Field<T> = JsonSchema & { readonly [valueType]?: T };

/** A schema written out by hand, typed with the value it describes. */
export const field = <T>(schema: JsonSchema): Field<T> => schema;

type Fields = Record<string, Field<unknown>>;

type ValueOf<F> = F extends Field<infer T> ? T : never;

/** The answer a view's fields describe; the `optional` ones may be left out. */
type ViewOf<P extends Fields, O extends keyof P = never> = {
  -readonly [K in Exclude<keyof P, O>]: ValueOf<P[K]>;
} & { -readonly [K in O]?: ValueOf<P[K]> };

const registry = new Map<string, JsonSchema>();

/** The view schemas registered so far, by name (for the document's components). */
export function viewSchemas(): ReadonlyMap<string, JsonSchema> {
  return registry;
}

export interface ViewSchema<P extends Fields = Fields, O extends keyof P = never> {
  readonly name: string;
  readonly ref: Field<ViewOf<P, O>> & { $ref: string };
  /** For a view that extends this one: its schema with more fields. */
  readonly properties: P;
}

/** The TypeScript type of the answers a view schema describes. */
export type ViewType<V> = V extends ViewSchema<infer P, infer O> ? ViewOf<P, O> : never;

/** Registers the schema of a view under `name`; every field required, no other field allowed. */
export function viewSchema<P extends Fields, O extends keyof P = never>(
  name: string,
  properties: P,
  description?: string,
  optional: readonly O[] = [],
): ViewSchema<P, O> {
  registry.set(name, {
    type: 'object',
    ...(description ? { description } : {}),
    additionalProperties: false,
    required: Object.keys(properties).filter((key) => !optional.includes(key as O)),
    properties,
  });
  return { name, ref: { $ref: `#/components/schemas/${name}` }, properties };
}

/**
 * viewSchema for the views that were classes, in the key order @nestjs/swagger gave their schemas
 * (the document adds `additionalProperties: false` last, closing every answer).
 */
export function classViewSchema<P extends Fields, O extends keyof P = never>(
  name: string,
  properties: P,
  optional: readonly O[] = [],
): ViewSchema<P, O> {
  const required = Object.keys(properties).filter((key) => !optional.includes(key as O));
  registry.set(name, { type: 'object', properties, required });
  return { name, ref: { $ref: `#/components/schemas/${name}` }, properties };
}

/*
 * The fields of classViewSchema, as @nestjs/swagger wrote the `@ApiProperty` fields of those
 * classes: numbers `number`, the description before the example, a list's items last.
 */
const classField = <T>(type: unknown, example: unknown, description?: string, more = {}) =>
  field<T>({ type, ...more, ...(description ? { description } : {}), example });
export const num = (example: number, description?: string) =>
  classField<number>('number', example, description);
export const str = (example: string, description?: string) =>
  classField<string>('string', example, description);
export const bool = (example: boolean, description?: string) =>
  classField<boolean>('boolean', example, description);
export const nullableInt = (example: number | null, description?: string) =>
  classField<number | null>(['integer', 'null'], example, description);
export const strEnum = <V extends string>(values: readonly V[], example: V, description?: string) =>
  classField<V>('string', example, description, { enum: [...values] });
export const listOf = <T>(items: Field<T>, example: T[], description?: string): Field<T[]> => ({
  ...(description ? { description } : {}),
  example,
  type: 'array',
  items,
});

/** A schema of the document's components that no class or view carries (an inline request item). */
export function namedSchema(name: string, schema: JsonSchema): { $ref: string } {
  registry.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** `@ApiView(LABEL)` / `@ApiView(LABEL, { list: true })`: the 200 answer of an operation. */
export const ApiView = (view: ViewSchema, options: { list?: boolean; description?: string } = {}) =>
  applyDecorators(
    ApiOkResponse({
      description: options.description ?? (options.list ? 'The list.' : 'OK'),
      schema: options.list ? { type: 'array', items: view.ref } : view.ref,
    }),
  );

/* Field schemas, with the examples Swagger UI shows. */
const described = <T>(schema: JsonSchema, description?: string): Field<T> =>
  description ? { ...schema, description } : schema;
export const int = (example: number, description?: string) =>
  described<number>({ type: 'integer', example }, description);
export const id = (example = 1, description?: string): Field<number> => ({
  ...int(example, description),
  minimum: 1,
});
export const text = (example: string, description?: string) =>
  described<string>({ type: 'string', example }, description);
export const flag = (example: boolean, description?: string) =>
  described<boolean>({ type: 'boolean', example }, description);
export const money = (example: string, description = 'Money, with two decimals.') =>
  described<string>({ type: 'string', pattern: '^-?\\d+\\.\\d{2}$', example }, description);
/** `2026-03-03T14:30:00-0500`: the contract's datetimes, offset without a colon. */
export const datetime = (example = '2030-06-03T10:15:00-0400', description?: string) =>
  described<string>(
    { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{4}$', example },
    description,
  );
export const date = (example = '2030-06-03', description?: string) =>
  described<string>({ type: 'string', format: 'date', example }, description);
export const orNull = <T>(schema: Field<T>): Field<T | null> =>
  typeof schema.type === 'string'
    ? {
        ...schema,
        type: [schema.type, 'null'],
        ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
      }
    : { anyOf: [schema, { type: 'null' }] };
export const list = <T>(items: Field<T>, description?: string) =>
  described<T[]>({ type: 'array', items }, description);
export const oneOf = <V extends string>(values: readonly V[], example?: V, description?: string) =>
  described<V>({ type: 'string', enum: [...values], example: example ?? values[0] }, description);
