import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { BEARER_CHALLENGE, UnauthorizedError } from '../../common/errors/domain-error';
import { IS_PUBLIC } from '../../common/http/public.decorator';
import type { Principal } from './principal';
import { ProvenCredentials } from './proven-credentials';

/**
 * The one authentication guard of the API, global: every route needs credentials unless marked
 * @Public(). Passport tries each scheme in turn: Basic (user ID and API key), then Bearer (an OAuth
 * access token; its strategy is the oauth module's). Either way the request acts on one account.
 * A credential its scheme proved moments ago is recognised from that scheme's cache without
 * passport's machinery (ProvenCredentials).
 */
@Injectable()
export class ApiAuthGuard extends AuthGuard(['basic', 'bearer']) {
  constructor(
    private readonly reflector: Reflector,
    private readonly proven: ProvenCredentials,
  ) {
    super({ session: false });
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const principal = this.proven.principalFor(request.headers.authorization);
    if (principal) {
      request.user = principal;
      return true;
    }
    return super.canActivate(context);
  }

  /**
   * A failure is the same 401 `unauthorized` body for either scheme; the challenge is Bearer's
   * `invalid_token` when a Bearer token was presented (RFC 6750 §3.1), Basic otherwise.
   */
  override handleRequest<TUser = Principal>(
    err: unknown,
    user: TUser | false,
    _info: unknown,
    context: ExecutionContext,
  ): TUser {
    if (err instanceof Error) throw err;
    if (!user) {
      const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
      throw new UnauthorizedError(
        header !== undefined && /^bearer /i.test(header) ? BEARER_CHALLENGE : undefined,
      );
    }
    return user;
  }
}
