import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CreateOAuthClientHandler } from './create-oauth-client.handler';
import { OAuthClient } from './oauth-client.entity';
import { OAuthClients } from './oauth-clients';

/** Registered partner apps: what the operator CLI needs of OAuth (no Redis, no HTTP). */
@Module({
  imports: [TypeOrmModule.forFeature([OAuthClient])],
  providers: [CreateOAuthClientHandler, OAuthClients],
  exports: [OAuthClients],
})
export class OAuthClientsModule {}
