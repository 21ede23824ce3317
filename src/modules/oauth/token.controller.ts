import { Controller, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/http/public.decorator';
import { AccessTokens } from './access-tokens';
import { AuthorizationCodes } from './authorization-codes';
import { authenticateClient, param, requiredParam } from './client-authentication';
import { OAuthClients } from './oauth-clients';
import { OAuthEndpointFilter } from './oauth-endpoint.filter';
import { ApiDisconnect, ApiToken } from './oauth.openapi';
import {
  API_SCOPE,
  InvalidRequestError,
  InvalidScopeError,
  UnsupportedGrantTypeError,
} from './oauth.errors';
import { CODE_VERIFIER } from './pkce';

/** The form of the request, or invalid_request (RFC 6749 §3.2: form-encoded, POST). */
function formOf(request: FastifyRequest): URLSearchParams {
  if (!(request.body instanceof URLSearchParams))
    throw new InvalidRequestError('The request body must be application/x-www-form-urlencoded.');
  return request.body;
}

function sendJson(reply: FastifyReply, body: object): void {
  void reply
    .code(200)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
    .type('application/json; charset=utf-8')
    .send(body);
}

/** `POST /oauth2/token` and `POST /oauth2/disconnect`: the app's side of OAuth 2.0. */
@ApiTags('oauth')
@Public()
@UseFilters(OAuthEndpointFilter)
@Controller('oauth2')
export class TokenController {
  constructor(
    private readonly clients: OAuthClients,
    private readonly codes: AuthorizationCodes,
    private readonly tokens: AccessTokens,
  ) {}

  /**
   * Exchanges an authorization code for an access token (RFC 6749 §4.1.3). The checks run in the
   * order a client can fix them: the request's shape, the grant type, the client, the code.
   */
  @Post('token')
  @HttpCode(200)
  @ApiToken()
  async token(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formOf(request);
    for (const name of ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'scope'])
      param(form, name); // refuses a repeated parameter before anything else
    const grantType = requiredParam(form, 'grant_type');
    if (grantType !== 'authorization_code') throw new UnsupportedGrantTypeError(grantType);
    const client = await authenticateClient(this.clients, request.headers.authorization, form);
    const code = requiredParam(form, 'code');
    const redirectUri = requiredParam(form, 'redirect_uri');
    const codeVerifier = param(form, 'code_verifier');
    if (codeVerifier !== undefined && !CODE_VERIFIER.test(codeVerifier))
      throw new InvalidRequestError(
        'The code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~".',
      );
    // RFC 6749 defines no scope here; one that is sent must be the scope the code grants.
    const scope = param(form, 'scope');
    if (scope !== undefined && scope !== API_SCOPE) throw new InvalidScopeError();

    const accessToken = await this.codes.exchange(client, { code, redirectUri, codeVerifier });
    sendJson(reply, { access_token: accessToken, token_type: 'Bearer' });
  }

  /** Disables an access token of this client (the contract's disconnect; RFC 7009 in spirit). */
  @Post('disconnect')
  @HttpCode(200)
  @ApiDisconnect()
  async disconnect(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formOf(request);
    param(form, 'access_token'); // refuses a repeated parameter before the client
    const client = await authenticateClient(this.clients, request.headers.authorization, form);
    await this.tokens.disconnect(client, requiredParam(form, 'access_token'));
    sendJson(reply, {});
  }
}
