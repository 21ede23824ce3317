import type { IncomingMessage } from 'node:http';

/** The enterprise API: its own endpoints, and every `/api/v1` route under a member's user ID. */
export const ENTERPRISE_PREFIX = '/api/enterprise/v1';
const MEMBER_PATH = `${ENTERPRISE_PREFIX}/users/`;

/** A user ID as a member path may name it: what the Basic username of an account may be. */
const USER_ID = /^[1-9]\d{0,9}$/;
/** What an enterprise request cannot reach under a member: the OpenAPI document and Swagger UI. */
const NOT_MEMBER_ROUTES = /^\/(docs|openapi\.(json|yaml))(\/|$)/;

const MEMBER = Symbol('enterpriseMember');
type MarkedRequest = IncomingMessage & { [MEMBER]?: number };

/**
 * In Fastify's `rewriteUrl`: `/api/enterprise/v1/users/{userId}/<rest>` becomes `/api/v1/<rest>`,
 * the request marked with the member's user ID, so that the auth guard takes the enterprise's
 * credentials (EnterpriseGate), never the member's. Any other shape (a user ID not of 1-10 digits:
 * `..`, `%2F`, `0x1`; no path after it) stays as it is and matches no route (404).
 */
export function rewriteEnterpriseUrl(req: IncomingMessage, url: string): string {
  if (!url.startsWith(MEMBER_PATH)) return url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const slash = path.indexOf('/', MEMBER_PATH.length);
  if (slash < 0) return url;
  const userId = path.slice(MEMBER_PATH.length, slash);
  const rest = path.slice(slash);
  if (!USER_ID.test(userId) || rest === '/' || NOT_MEMBER_ROUTES.test(rest)) return url;
  (req as MarkedRequest)[MEMBER] = Number(userId);
  return `/api/v1${rest}${q < 0 ? '' : url.slice(q)}`;
}

/** The member's user ID when the request came through `/api/enterprise/v1/users/{userId}/…`. */
export function enterpriseMemberOf(req: IncomingMessage): number | undefined {
  return (req as MarkedRequest)[MEMBER];
}
