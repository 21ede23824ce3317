import { Controller, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import { BusController } from '../../common/cqrs/bus-controller';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/http/public.decorator';
import { DisconnectAccessTokenCommand } from './access-token.commands';
import { ExchangeAuthorizationCodeCommand } from './authorization-code.commands';
import { param, requiredParam } from './client-authentication';
import { OAuthEndpointFilter, sendJson } from './oauth-endpoint.filter';
import { ApiDisconnect, ApiToken } from './oauth.openapi';
import { InvalidRequestError, OAuthEndpointError } from './oauth.errors';

/** The form of the request, or invalid_request (RFC 6749 §3.2: form-encoded, POST). */
function formOf(request: FastifyRequest): URLSearchParams {
  if (!(request.body instanceof URLSearchParams))
    throw new InvalidRequestError('The request body must be application/x-www-form-urlencoded.');
  return request.body;
}

/** `POST /oauth2/token` and `POST /oauth2/disconnect`: the app's side of OAuth 2.0. */
@ApiTags('oauth')
@Public()
@UseFilters(OAuthEndpointFilter)
@Controller('oauth2')
export class TokenController extends BusController {
  /** RFC 6749 §4.1.3. Checked in the order a client can fix: shape, grant type, client, code. */
  @Post('token')
  @HttpCode(200)
  @ApiToken()
  async token(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formOf(request);
    for (const name of ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'scope'])
      param(form, name); // refuses a repeated parameter before anything else
    const grantType = requiredParam(form, 'grant_type');
    if (grantType !== 'authorization_code')
      throw new OAuthEndpointError(
        400,
        'unsupported_grant_type',
        `The grant type "${grantType}" is not supported: use "authorization_code".`,
      );
    const accessToken = await this.commands.execute(
      new ExchangeAuthorizationCodeCommand(request.headers.authorization, form),
    );
    sendJson(reply, 200, { access_token: accessToken, token_type: 'Bearer' });
  }

  /** Disables an access token of this client (the contract's disconnect; RFC 7009 in spirit). */
  @Post('disconnect')
  @HttpCode(200)
  @ApiDisconnect()
  async disconnect(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formOf(request);
    param(form, 'access_token'); // refuses a repeated parameter before the client
    await this.commands.execute(
      new DisconnectAccessTokenCommand(request.headers.authorization, form),
    );
    sendJson(reply, 200, {});
  }
}
