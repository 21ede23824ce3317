import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { BEARER_CHALLENGE, UnauthorizedError } from '../../common/errors/domain-error';
import { enterpriseMemberOf } from '../../common/http/enterprise-routing';
import { IS_PUBLIC } from '../../common/http/public.decorator';
import { EnterpriseLimiter } from '../../common/limits/enterprise-limiter';
import type { Account } from './account.entity';
import { IS_ENTERPRISE_API, type EnterpriseRequest } from './enterprise-auth.decorators';
import { EnterpriseGate } from './enterprise-gate';
import type { Enterprise } from './enterprise.entity';
import { type Principal, principalOf } from './principal';
import { ProvenCredentials } from './proven-credentials';

type GuardedRequest = EnterpriseRequest & { user?: Principal };

/** What a route's metadata asks of the guard: read once per route, not per request. */
interface RouteAccess {
  isPublic: boolean;
  isEnterpriseApi: boolean;
}

/**
 * The one authentication guard of the API, global: every route needs credentials unless marked
 * @Public(). Passport tries each scheme in turn: Basic (user ID and API key), then Bearer (an OAuth
 * access token; its strategy is the oauth module's). Either way the request acts on one account.
 * A credential its scheme proved moments ago is recognised from that scheme's cache without
 * passport's machinery (ProvenCredentials).
 *
 * The enterprise API passes here too, and only with an enterprise's credentials
 * (EnterpriseGate), counted against the enterprise's limit (EnterpriseLimiter):
 * - a request routed from `/api/enterprise/v1/users/{userId}/…` (see enterprise-routing.ts) acts
 *   on that member with the member's principal, @Public() routes included: the same route then
 *   runs as for the member's own key;
 * - the enterprise's own endpoints (@EnterpriseApi()) get the enterprise (@CurrentEnterprise()).
 */
@Injectable()
export class ApiAuthGuard extends AuthGuard(['basic', 'bearer']) {
  constructor(
    private readonly reflector: Reflector,
    private readonly proven: ProvenCredentials,
    private readonly gate: EnterpriseGate,
    private readonly limiter: EnterpriseLimiter,
  ) {
    super({ session: false });
  }

  /**
   * Route metadata is fixed once the app is built: reading it through the Reflector on every
   * request (two `getAllAndOverride`, four reflect-metadata lookups) was ~2% of an authenticated
   * GET in bench:http. Keyed by class, then handler: a handler inherited by two controllers may
   * carry either's class-level metadata.
   */
  private readonly access = new WeakMap<object, WeakMap<object, RouteAccess>>();

  private routeAccess(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = this.access.get(controller);
    if (byHandler === undefined) this.access.set(controller, (byHandler = new WeakMap()));
    let access = byHandler.get(handler);
    if (access === undefined) {
      const targets = [handler, controller];
      access = {
        isEnterpriseApi: !!this.reflector.getAllAndOverride<boolean>(IS_ENTERPRISE_API, targets),
        isPublic: !!this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets),
      };
      byHandler.set(handler, access);
    }
    return access;
  }

  override canActivate(context: ExecutionContext) {
    // The request itself (argument 0 of an HTTP context): switchToHttp() would assign three new
    // closures onto the context on every call.
    const request = context.getArgByIndex<GuardedRequest>(0);
    const member = enterpriseMemberOf(request.raw);
    if (member !== undefined) return this.asMember(request, member);
    const { isEnterpriseApi, isPublic } = this.routeAccess(context);
    if (isEnterpriseApi) return this.asEnterprise(request);
    if (isPublic) return true;
    const principal = this.proven.principalFor(request.headers.authorization);
    if (principal) {
      request.user = principal;
      return true;
    }
    return super.canActivate(context);
  }

  /** Synchronous while every step is (proven key, cached account, limits off). */
  private asMember(request: GuardedRequest, userId: number): boolean | Promise<boolean> {
    return then(this.admitted(request), (enterprise) =>
      then(this.gate.member(enterprise, userId), (account: Account) => {
        request.user = { ...principalOf(account, 'basic'), enterpriseId: enterprise.id };
        return true;
      }),
    );
  }

  private asEnterprise(request: GuardedRequest): boolean | Promise<boolean> {
    return then(this.admitted(request), (enterprise) => {
      request.enterprise = enterprise;
      return true;
    });
  }

  /** The authenticated enterprise, within its limit (every authenticated request counts). */
  private admitted(request: GuardedRequest): Enterprise | Promise<Enterprise> {
    return then(this.gate.enterprise(request.headers.authorization), (enterprise) => {
      const refusal = this.limiter.admit(enterprise.id, enterprise.requestsPerMinute);
      if (refusal === undefined) return enterprise;
      return refusal.then((error) => {
        if (error) throw error;
        return enterprise;
      });
    });
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

/** `next(value)`, at once when the value is there, after it when it is a promise. */
function then<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
