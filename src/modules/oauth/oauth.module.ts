import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { LimitsModule } from '../../common/limits/limits.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account, AccountsModule } from '../accounts';
import { AccessTokens } from './access-tokens';
import { AccountPasswords } from './account-passwords';
import { AuthorizationCodes } from './authorization-codes';
import { AuthorizationRequests } from './authorization-request';
import { AuthorizeController } from './authorize.controller';
import { BearerStrategy } from './bearer.strategy';
import { LoginThrottle } from './login-throttle';
import { OAuthClientsModule } from './oauth-clients.module';
import { OAuthCode } from './oauth-code.entity';
import { OAuthToken } from './oauth-token.entity';
import { SignInSessions } from './sign-in-session';
import { TokenController } from './token.controller';

/**
 * OAuth 2.0 for partner apps (authorization code flow), at the host root beside /api/v1:
 * `/oauth2/authorize` (login and consent pages), `/oauth2/token`, `/oauth2/disconnect`, and the
 * Bearer strategy that the API's auth guard tries after Basic.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Account, OAuthCode, OAuthToken]),
    PassportModule,
    AccountsModule,
    OAuthClientsModule,
    LimitsModule,
  ],
  controllers: [AuthorizeController, TokenController],
  providers: [
    AccessTokens,
    AccountPasswords,
    AuthorizationCodes,
    AuthorizationRequests,
    BearerStrategy,
    LoginThrottle,
    SignInSessions,
  ],
})
export class OAuthModule {}
