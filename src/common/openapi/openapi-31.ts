import type { OpenAPIObject } from '@nestjs/swagger';

/* Where the document is finished: @nestjs/swagger writes OpenAPI 3.0; the service publishes 3.1. */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Calls `visit` on every object of the tree, its children first. */
function eachObject(node: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) eachObject(item, visit);
    return;
  }
  if (!isObject(node)) return;
  for (const value of Object.values(node)) eachObject(value, visit);
  visit(node);
}

/**
 * 3.0 → 3.1 in schemas: `nullable: true` becomes a type list with `"null"` (or `anyOf` with
 * `{type: 'null'}` beside a `$ref`), `exclusiveMinimum: true` a number; a `oneOf` stands alone
 * (swagger adds the property's design type beside it).
 */
export const toJsonSchema2020 = (root: unknown): void =>
  eachObject(root, (node) => {
    if ((node.oneOf || node.anyOf) && typeof node.type === 'string' && !node.properties)
      delete node.type;
    if (node.nullable === true) {
      delete node.nullable;
      if (typeof node.type === 'string') node.type = [node.type, 'null'];
      else if (Array.isArray(node.type)) node.type = [...(node.type as string[]), 'null'];
      else if (node.$ref || node.allOf || node.oneOf) {
        const inner = { ...node };
        for (const key of Object.keys(node)) if (key !== 'description') delete node[key];
        node.anyOf = [inner, { type: 'null' }];
      }
      const values = node.enum as unknown[] | undefined;
      if (Array.isArray(values) && !values.includes(null)) node.enum = [...values, null];
    } else if (node.nullable === false) delete node.nullable;
  });

/** A response whose JSON body is a closed object of these properties, all required. */
const closedResponse = (
  description: string,
  properties: Json,
  required = Object.keys(properties),
): Json => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        additionalProperties: false,
        required,
        properties,
      },
    },
  },
});

const ENVELOPE = ['status_code', 'message', 'error'];

/** The error envelope's response for one status and its codes. */
export function envelopeResponse(
  status: number,
  codes: readonly string[],
  description: string,
  details: Json = {},
): Json {
  const properties = {
    status_code: { type: 'integer', enum: [status] },
    message: { type: 'string', description: 'What went wrong, for a person.' },
    error: { type: 'string', enum: [...codes] },
    ...details,
  };
  return closedResponse(description, properties, ENVELOPE);
}

/** An OAuth endpoint's error: `{error, message}` without `status_code` (RFC 6749 §5.2). */
export function oauthErrorResponse(codes: string[], description: string): Json {
  return closedResponse(description, {
    error: { type: 'string', enum: codes },
    message: { type: 'string' },
  });
}

/** The `error` codes a response's envelope lists (none when it is not the envelope). */
export function envelopeCodes(response: unknown): string[] | undefined {
  const schema = (response as { content?: Record<string, { schema?: Json }> } | undefined)
    ?.content?.['application/json']?.schema;
  const error = (schema?.properties as Json | undefined)?.error as Json | undefined;
  return Array.isArray(error?.enum) ? (error.enum as string[]) : undefined;
}

/** Adds `codes` to the envelope of `status` on an operation, making the response if it lacks one. */
export function addErrorCodes(
  responses: Json,
  status: number,
  codes: readonly string[],
  description: string,
): void {
  if (codes.length === 0) return;
  const existing = responses[status];
  const known = envelopeCodes(existing);
  if (!existing || !known) {
    responses[status] = envelopeResponse(status, codes, description);
    return;
  }
  const all = [...known, ...codes.filter((code) => !known.includes(code))];
  // What the operation's envelope carries besides the three (a series' `unavailable`) stays.
  const schema = ((existing as Json).content as Record<string, Json>)['application/json'].schema;
  const details = Object.fromEntries(
    Object.entries((schema as Json).properties as Json).filter(([key]) => !ENVELOPE.includes(key)),
  );
  const said = (existing as Json).description as string;
  responses[status] = envelopeResponse(status, all, said, details);
}

/** Every response schema is closed: a field the document does not name is a contract breach. */
export const closeObjects = (root: unknown): void =>
  eachObject(root, (node) => {
    if (
      node.type === 'object' &&
      isObject(node.properties) &&
      node.additionalProperties === undefined
    )
      node.additionalProperties = false;
  });

export type { OpenAPIObject };
