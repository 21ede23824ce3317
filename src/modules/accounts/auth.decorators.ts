import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal';
import { requestParam } from './request-param';

type AuthenticatedRequest = FastifyRequest & { user: Principal };

/** The authenticated principal of the request (routes behind the auth guard only). */
export const CurrentPrincipal = requestParam(
  (request): Principal => (request as AuthenticatedRequest).user,
);

/** The authenticated account's id: what every query of a tenant resource is scoped by. */
export const CurrentAccountId = requestParam(
  (request): number => (request as AuthenticatedRequest).user.accountId,
);
