import type { OpenAPIObject } from '@nestjs/swagger';
import { API_PREFIX, DOCS_PATH, OPENAPI_PATH } from '../http/request-parsing';
import { ENTERPRISE_PREFIX } from '../http/enterprise-routing';
import { errorEnvelopeSchema } from './api-errors';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** The tag under which the member copies of the v1 operations are listed. */
export const ENTERPRISE_MEMBERS_TAG = 'enterprise: members';

interface Operation {
  operationId?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: unknown[];
  responses?: Record<string, ResponseDoc>;
  [key: string]: unknown;
}

interface ResponseDoc {
  description?: string;
  content?: { 'application/json'?: { schema?: { properties?: { error?: { enum?: string[] } } } } };
}

const USER_ID = {
  name: 'userId',
  in: 'path',
  required: true,
  description: "The member account's user ID (a positive integer of at most 10 digits).",
  schema: { type: 'integer', minimum: 1 },
};

/**
 * The enterprise API's member paths in the OpenAPI document: each `/api/v1/<path>` operation again
 * as `/api/enterprise/v1/users/{userId}/<path>`, with the enterprise's security scheme, `userId`
 * and its refusals, written from the v1 operations as the router serves them
 * (enterprise-routing.ts).
 */
export function addEnterpriseMemberPaths(document: OpenAPIObject, security: string): void {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith(`${API_PREFIX}/`) || path === OPENAPI_PATH) continue;
    if (path.startsWith(DOCS_PATH)) continue;
    const copy: Record<string, Operation> = {};
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const clone = structuredClone(operation);
      copy[method] = {
        ...clone,
        operationId: `enterprise_${clone.operationId ?? `${method}_${path}`}`,
        tags: [ENTERPRISE_MEMBERS_TAG],
        security: [{ [security]: [] }],
        parameters: [USER_ID, ...(clone.parameters ?? [])],
        responses: withMemberRefusals(clone.responses ?? {}),
      };
    }
    document.paths[`${ENTERPRISE_PREFIX}/users/{userId}${path.slice(API_PREFIX.length)}`] = copy;
  }
}

/** 403 `forbidden` (not a member) and 404 `not_found` (no such account) beside the route's own. */
function withMemberRefusals(responses: Record<string, ResponseDoc>): Record<string, ResponseDoc> {
  for (const [status, code, text] of [
    [403, 'forbidden', 'Forbidden'],
    [404, 'not_found', 'Not Found'],
  ] as const) {
    const existing = responses[status];
    const codes = existing?.content?.['application/json']?.schema?.properties?.error?.enum;
    if (existing && codes) {
      if (!codes.includes(code)) codes.push(code);
      continue;
    }
    responses[status] = {
      description: `${text}: \`${code}\``,
      content: { 'application/json': { schema: errorEnvelopeSchema(status, [code]) } },
    };
  }
  return responses;
}
