import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal';

/** The authenticated principal of the request (routes behind the auth guard only). */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal =>
    ctx.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user,
);

/** The authenticated account's id: what every query of a tenant resource is scoped by. */
export const CurrentAccountId = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): number =>
    ctx.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user.accountId,
);
