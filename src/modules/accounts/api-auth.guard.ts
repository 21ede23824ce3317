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

interface RouteAccess {
  isPublic: boolean;
  isEnterpriseApi: boolean;
}

/**
 * The API's one global guard: every route but a @Public() one needs Basic (user ID and API key) or
 * Bearer (an OAuth token; the oauth module's strategy) credentials, and acts on one account. A
 * credential proved moments ago is recognised from its scheme's cache (ProvenCredentials).
 *
 * The enterprise API takes only an enterprise's credentials (EnterpriseGate), counted against its
 * limit (EnterpriseLimiter): a request routed from `/api/enterprise/v1/users/{userId}/…` acts as
 * that member, @Public() routes included; @EnterpriseApi() endpoints get the enterprise.
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
   * Read once per route (the Reflector on every request was ~2% of an authenticated GET in
   * bench:http); by class, then handler: an inherited handler may carry either class's metadata.
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
    // Argument 0: switchToHttp() would assign three new closures onto the context on every call.
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

  /** One 401 `unauthorized` for both schemes; Bearer's challenge for a Bearer token (RFC 6750). */
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
