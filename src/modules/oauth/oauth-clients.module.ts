import { Module } from '@nestjs/common';
import { CreateOAuthClientHandler } from './oauth-client.commands';
import { OAuthClientRepository, OAuthClientTables } from './oauth-client.repository';

/** Registered partner apps: what the operator CLI needs of OAuth (no Redis, no HTTP). */
@Module({
  imports: [OAuthClientTables],
  providers: [CreateOAuthClientHandler, OAuthClientRepository],
  exports: [OAuthClientRepository],
})
export class OAuthClientsModule {}
