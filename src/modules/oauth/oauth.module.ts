import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { LimitsModule } from '../../common/limits/limits.module';
import { AccountsModule } from '../accounts';
import { DisconnectAccessTokenHandler } from './access-token.commands';
import { AccessTokens } from './access-tokens';
import { AccountPasswords } from './account-passwords';
import {
  ExchangeAuthorizationCodeHandler,
  IssueAuthorizationCodeHandler,
} from './authorization-code.commands';
import { AuthorizationRequests } from './authorization-request';
import { AuthorizeController } from './authorize.controller';
import { BearerStrategy } from './bearer.strategy';
import { LoginThrottle } from './login-throttle';
import { OAuthClientsModule } from './oauth-clients.module';
import { OAuthCodeRepository } from './oauth-code.repository';
import { OAuthGrantTables, OAuthTokenRepository } from './oauth-token.repository';
import { SignInAccountRepository } from './sign-in-account.repository';
import { SignInSessions } from './sign-in-session';
import { TokenController } from './token.controller';

/**
 * OAuth 2.0 for partner apps (authorization code flow), at the host root beside /api/v1:
 * `/oauth2/authorize` (login and consent pages), `/oauth2/token`, `/oauth2/disconnect`, and the
 * Bearer strategy that the API's auth guard tries after Basic.
 */
@Module({
  imports: [OAuthGrantTables, PassportModule, AccountsModule, OAuthClientsModule, LimitsModule],
  controllers: [AuthorizeController, TokenController],
  providers: [
    AccessTokens,
    AccountPasswords,
    AuthorizationRequests,
    BearerStrategy,
    DisconnectAccessTokenHandler,
    ExchangeAuthorizationCodeHandler,
    IssueAuthorizationCodeHandler,
    LoginThrottle,
    OAuthCodeRepository,
    OAuthTokenRepository,
    SignInAccountRepository,
    SignInSessions,
  ],
})
export class OAuthModule {}
