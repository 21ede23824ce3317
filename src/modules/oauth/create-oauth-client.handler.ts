import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { assertName } from '../accounts';
import {
  CreateOAuthClientCommand,
  type OAuthClientCredentials,
} from './create-oauth-client.command';
import { OAuthClient } from './oauth-client.entity';
import { RedirectUriCountError } from './oauth.errors';
import { assertRedirectUri } from './redirect-uri';

/** At most this many redirect URIs per client (the consent page's CSP lists their origins). */
export const MAX_REDIRECT_URIS = 10;

@CommandHandler(CreateOAuthClientCommand)
export class CreateOAuthClientHandler implements ICommandHandler<CreateOAuthClientCommand> {
  constructor(
    @InjectRepository(OAuthClient) private readonly clients: Repository<OAuthClient>,
    private readonly secrets: Secrets,
  ) {}

  async execute({ name, redirectUris }: CreateOAuthClientCommand): Promise<OAuthClientCredentials> {
    const uris = [...new Set(redirectUris.map(assertRedirectUri))];
    if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS)
      throw new RedirectUriCountError(MAX_REDIRECT_URIS);
    const clientId = Secrets.generate(16);
    const clientSecret = Secrets.generate(32);
    await this.clients.insert({
      clientId,
      secretHash: this.secrets.hash(clientSecret),
      name: assertName(name),
      redirectUris: uris,
      createdAt: new Date(),
    });
    return { clientId, clientSecret };
  }
}
