import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import { PassportModule } from '@nestjs/passport';
import { LimitsModule } from '../../common/limits/limits.module';
import { AccountsModule } from '../accounts';
import * as accessTokenCommands from './access-token.commands';
import { AccessTokens } from './access-tokens';
import { AccountPasswords } from './account-passwords';
import * as authorizationCodeCommands from './authorization-code.commands';
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

/** OAuth 2.0 for partner apps: `/oauth2/*`, and the Bearer strategy the guard tries after Basic. */
@Module({
  imports: [OAuthGrantTables, PassportModule, AccountsModule, OAuthClientsModule, LimitsModule],
  controllers: [AuthorizeController, TokenController],
  providers: [
    AccessTokens,
    AccountPasswords,
    AuthorizationRequests,
    BearerStrategy,
    LoginThrottle,
    OAuthCodeRepository,
    OAuthTokenRepository,
    SignInAccountRepository,
    SignInSessions,
    ...handlersOf(accessTokenCommands, authorizationCodeCommands),
  ],
})
export class OAuthModule {}
