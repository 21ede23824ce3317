import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { UnauthorizedError } from '../../common/errors/domain-error';
import { IS_PUBLIC } from '../../common/http/public.decorator';
import type { Principal } from './principal';

/**
 * The one authentication guard of the API, global: every route needs credentials unless marked
 * @Public(). Passport tries each scheme in turn (Basic now; Bearer joins with OAuth).
 */
@Injectable()
export class ApiAuthGuard extends AuthGuard(['basic']) {
  constructor(private readonly reflector: Reflector) {
    super({ session: false });
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    return isPublic ? true : super.canActivate(context);
  }

  override handleRequest<TUser = Principal>(err: unknown, user: TUser | false): TUser {
    if (err instanceof Error) throw err;
    if (!user) throw new UnauthorizedError();
    return user;
  }
}
