import { Module } from '@nestjs/common';
import { handlersOf } from '../../common/cqrs/handlers-of';
import * as oauthClientCommands from './oauth-client.commands';
import { OAuthClientRepository, OAuthClientTables } from './oauth-client.repository';

/** Registered partner apps: what the operator CLI needs of OAuth (no Redis, no HTTP). */
@Module({
  imports: [OAuthClientTables],
  providers: [OAuthClientRepository, ...handlersOf(oauthClientCommands)],
  exports: [OAuthClientRepository],
})
export class OAuthClientsModule {}
