import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { Public } from '../../common/http/public.decorator';
import type { Account } from '../accounts';
import { AccountPasswords } from './account-passwords';
import { IssueAuthorizationCodeCommand } from './authorization-code.commands';
import {
  type AuthorizationRequest,
  AuthorizationRequests,
  queryOf,
  redirectTo,
} from './authorization-request';
import { AuthorizePageFilter } from './authorize-page.filter';
import { LoginThrottle } from './login-throttle';
import { ApiAuthorize } from './oauth.openapi';
import { consentPage, loginPage, sendPage, sendRedirect } from './oauth-pages';
import { originOf } from './redirect-uri';
import { SignInAccountRepository } from './sign-in-account.repository';
import { type SignInSession, SignInSessions } from './sign-in-session';

const INCORRECT = 'The e-mail address or password is incorrect.';
const FORM_EXPIRED = 'This form has expired. Please try again.';

/** The form of a page's POST; anything else is refused with an error page. */
function formOf(request: FastifyRequest): URLSearchParams {
  if (!(request.body instanceof URLSearchParams))
    throw new InvalidAttributeError(
      'invalid_request',
      'The form must be sent as application/x-www-form-urlencoded.',
    );
  return request.body;
}

/**
 * The user's side of OAuth 2.0 (RFC 6749 §4.1.1–4.1.2): the login page, or the consent page once
 * signed in. The forms post back to the same query, checked again each time (the server keeps
 * nothing of the request). Server-rendered HTML, no script, every form CSRF-protected.
 */
@ApiTags('oauth')
@Public()
@UseFilters(AuthorizePageFilter)
@Controller('oauth2')
export class AuthorizeController {
  constructor(
    private readonly requests: AuthorizationRequests,
    private readonly sessions: SignInSessions,
    private readonly passwords: AccountPasswords,
    private readonly accounts: SignInAccountRepository,
    private readonly throttle: LoginThrottle,
    private readonly commands: CommandBus,
  ) {}

  @Get('authorize')
  @ApiAuthorize()
  async show(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const request = await this.requests.parse(queryOf(req.url));
    const session = this.sessions.read(req.headers.cookie);
    const account = await this.signedInAccount(session);
    if (session && account) return this.consent(reply, 200, request, session, account);
    const fresh = session ?? this.sessions.anonymous();
    this.login(reply, 200, request, fresh, { cookie: session ? undefined : fresh });
  }

  /** The login form: e-mail and password, throttled; success returns to the authorize page. */
  @Post('login')
  @ApiExcludeEndpoint()
  async signIn(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { request, form, session } = await this.posted(req);
    const email = form.get('email') ?? '';
    if (!session || !this.sessions.csrfMatches(session, form.get('csrf'))) {
      const fresh = this.sessions.anonymous();
      return this.login(reply, 403, request, fresh, { cookie: fresh, email, error: FORM_EXPIRED });
    }
    const verdict = await this.throttle.attempt(email, req.ip);
    if (!verdict.allowed) {
      const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
      return this.login(reply, 429, request, session, {
        email,
        error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        headers: { 'retry-after': String(verdict.retryAfterSeconds) },
      });
    }
    const account = await this.passwords.verify(email, form.get('password') ?? '');
    if (!account) return this.login(reply, 400, request, session, { email, error: INCORRECT });
    // A new session (and CSRF token) on sign-in: one planted before cannot be carried over.
    sendRedirect(reply, 'POST', `/oauth2/authorize?${request.query}`, {
      cookie: this.sessions.cookie(this.sessions.signedIn(account)),
    });
  }

  /** The consent form: Allow issues a code, Deny answers access_denied; both go back to the app. */
  @Post('authorize')
  @ApiExcludeEndpoint()
  async decide(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { request, form, session } = await this.posted(req);
    const account = await this.signedInAccount(session);
    if (!session || !account) {
      const fresh = this.sessions.anonymous();
      return this.login(reply, 403, request, fresh, {
        cookie: fresh,
        error: 'Your sign-in has expired. Please sign in again.',
      });
    }
    if (!this.sessions.csrfMatches(session, form.get('csrf')))
      return this.consent(reply, 403, request, session, account, FORM_EXPIRED);
    const decisions = form.getAll('decision');
    const decision = decisions.length === 1 ? decisions[0] : undefined;
    if (decision !== 'allow' && decision !== 'deny')
      return this.consent(reply, 400, request, session, account, 'Choose Allow or Deny.');
    const issue = new IssueAuthorizationCodeCommand(request, account.id);
    const answer =
      decision === 'allow'
        ? { code: await this.commands.execute(issue) }
        : { error: 'access_denied', error_description: 'The user denied access.' };
    const location = redirectTo(request.redirectUri, { ...answer, state: request.state });
    sendRedirect(reply, 'POST', location, { formTargets: [originOf(request.redirectUri)] });
  }

  /** "Not you?": ends the sign-in and shows the login page again. */
  @Post('logout')
  @ApiExcludeEndpoint()
  async signOut(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { request, form, session } = await this.posted(req);
    if (!this.sessions.csrfMatches(session, form.get('csrf'))) {
      const account = await this.signedInAccount(session);
      if (session && account)
        return this.consent(reply, 403, request, session, account, FORM_EXPIRED);
    }
    sendRedirect(reply, 'POST', `/oauth2/authorize?${request.query}`, {
      cookie: this.sessions.cookie(this.sessions.anonymous()),
    });
  }

  /** A page's POST: the authorization request (checked again), the form and the session. */
  private async posted(req: FastifyRequest) {
    const request = await this.requests.parse(queryOf(req.url));
    return { request, form: formOf(req), session: this.sessions.read(req.headers.cookie) };
  }

  /** The session's account, when signed in with its current password (MySQL, never a cache). */
  private async signedInAccount(session: SignInSession | null): Promise<Account | null> {
    if (session?.accountId == null) return null;
    const account = await this.accounts.byId(session.accountId);
    return account && this.sessions.isCurrentFor(session, account) ? account : null;
  }

  private login(
    reply: FastifyReply,
    status: number,
    request: AuthorizationRequest,
    session: SignInSession,
    options: {
      cookie?: SignInSession;
      email?: string;
      error?: string;
      headers?: Record<string, string>;
    } = {},
  ): void {
    sendPage(
      reply,
      status,
      loginPage({
        appName: request.client.name,
        query: request.query,
        csrf: session.csrf,
        email: options.email,
        error: options.error,
      }),
      {
        cookie: options.cookie && this.sessions.cookie(options.cookie),
        headers: options.headers,
      },
    );
  }

  private consent(
    reply: FastifyReply,
    status: number,
    request: AuthorizationRequest,
    session: SignInSession,
    account: Account,
    error?: string,
  ): void {
    const redirectOrigin = originOf(request.redirectUri);
    sendPage(
      reply,
      status,
      consentPage({
        appName: request.client.name,
        accountName: account.name,
        accountEmail: account.email,
        redirectOrigin,
        query: request.query,
        csrf: session.csrf,
        error,
      }),
      { formTargets: [redirectOrigin] },
    );
  }
}
