import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';

/*
 * Response views that are TypeScript interfaces (no class for @ApiProperty to sit on) are described
 * beside them with viewSchema: the compiler requires one schema per field of the view and no other,
 * so a field added to a view and not described does not compile, and the contract test
 * (test/support/openapi-contract.ts) checks every answer the e2e suites get against the schema.
 */

export type JsonSchema = Record<string, unknown>;

const registry = new Map<string, JsonSchema>();

/** The view schemas registered so far, by name (for the document's components). */
export function viewSchemas(): ReadonlyMap<string, JsonSchema> {
  return registry;
}

export interface ViewSchema<T> {
  readonly name: string;
  readonly ref: { $ref: string };
  /** For a view that extends this one: its schema with more fields. */
  readonly properties: { [K in keyof T]-?: JsonSchema };
}

/** Registers the schema of view `T` under `name`; every field required, no other field allowed. */
export function viewSchema<T>(
  name: string,
  properties: { [K in keyof T]-?: JsonSchema },
  description?: string,
  optional: readonly (keyof T)[] = [],
): ViewSchema<T> {
  registry.set(name, {
    type: 'object',
    ...(description ? { description } : {}),
    additionalProperties: false,
    required: Object.keys(properties).filter((key) => !optional.includes(key as keyof T)),
    properties,
  });
  return { name, ref: { $ref: `#/components/schemas/${name}` }, properties };
}

/** A schema of the document's components that no class or view carries (an inline request item). */
export function namedSchema(name: string, schema: JsonSchema): { $ref: string } {
  registry.set(name, schema);
  return { $ref: `#/components/schemas/${name}` };
}

/** `@ApiView(LABEL)` / `@ApiView(LABEL, { list: true })`: the 200 answer of an operation. */
export const ApiView = (
  view: ViewSchema<unknown>,
  options: { list?: boolean; description?: string } = {},
) =>
  applyDecorators(
    ApiOkResponse({
      description: options.description ?? (options.list ? 'The list.' : 'OK'),
      schema: options.list ? { type: 'array', items: view.ref } : view.ref,
    }),
  );

/* Field schemas, with the examples Swagger UI shows. */
export const int = (example: number, description?: string): JsonSchema => ({
  type: 'integer',
  example,
  ...(description ? { description } : {}),
});
export const id = (example = 1, description?: string) => ({
  ...int(example, description),
  minimum: 1,
});
export const text = (example: string, description?: string): JsonSchema => ({
  type: 'string',
  example,
  ...(description ? { description } : {}),
});
export const flag = (example: boolean, description?: string): JsonSchema => ({
  type: 'boolean',
  example,
  ...(description ? { description } : {}),
});
export const money = (example: string, description = 'Money, with two decimals.') => ({
  type: 'string',
  pattern: '^-?\\d+\\.\\d{2}$',
  example,
  description,
});
/** `2026-03-03T14:30:00-0500`: the contract's datetimes, offset without a colon. */
export const datetime = (example = '2030-06-03T10:15:00-0400', description?: string) => ({
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{4}$',
  example,
  ...(description ? { description } : {}),
});
export const date = (example = '2030-06-03', description?: string) => ({
  type: 'string',
  format: 'date',
  example,
  ...(description ? { description } : {}),
});
export const orNull = (schema: JsonSchema): JsonSchema =>
  typeof schema.type === 'string'
    ? {
        ...schema,
        type: [schema.type, 'null'],
        ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
      }
    : { anyOf: [schema, { type: 'null' }] };
export const list = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {}),
});
export const oneOf = (values: readonly string[], example?: string, description?: string) => ({
  type: 'string',
  enum: [...values],
  example: example ?? values[0],
  ...(description ? { description } : {}),
});
