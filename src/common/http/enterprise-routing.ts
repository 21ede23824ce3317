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
 * The one routing mechanism of the enterprise API, run before Fastify routes the request
 * (its `rewriteUrl`): `/api/enterprise/v1/users/{userId}/<rest>` becomes `/api/v1/<rest>`, the
 * query kept, and the request is marked with the member's user ID. The same route, guards, pipes
 * and handlers then serve it as they serve the member's own key; the auth guard sees the mark and
 * takes the enterprise's credentials instead (EnterpriseGate in accounts), never the member's.
 *
 * Any other shape stays as it is and matches no route (404): a user ID that is not a positive
 * decimal of at most 10 digits (`..`, `%2F`, `0x1`, `-1`, 11 digits), or no path after it.
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
