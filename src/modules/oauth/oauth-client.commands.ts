import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Secrets } from '../../common/crypto/secrets';
import { InvalidAttributeError } from '../../common/errors/domain-error';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { assertName } from '../accounts';
import { OAuthClientRepository } from './oauth-client.repository';
import { assertRedirectUri } from './redirect-uri';

/** At most this many redirect URIs per client (the consent page's CSP lists their origins). */
const MAX_REDIRECT_URIS = 10;

/** What the operator hands to the app's developer, once: the secret is stored only as a hash. */
export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** Registers a partner app with its exact redirect URIs. */
export class CreateOAuthClientCommand extends Command<OAuthClientCredentials> {
  constructor(
    readonly name: string,
    readonly redirectUris: string[],
  ) {
    super();
  }
}

@CommandHandler(CreateOAuthClientCommand)
export class CreateOAuthClientHandler implements ICommandHandler<CreateOAuthClientCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clients: OAuthClientRepository,
    private readonly secrets: Secrets,
  ) {}

  async execute({ name, redirectUris }: CreateOAuthClientCommand): Promise<OAuthClientCredentials> {
    const uris = [...new Set(redirectUris.map(assertRedirectUri))];
    if (uris.length === 0 || uris.length > MAX_REDIRECT_URIS)
      throw new InvalidAttributeError(
        'invalid_redirect_uri',
        `A client has 1 to ${MAX_REDIRECT_URIS} redirect URIs.`,
      );
    const clientId = Secrets.generate(16);
    const clientSecret = Secrets.generate(32);
    const client = {
      clientId,
      secretHash: this.secrets.hash(clientSecret),
      name: assertName(name),
      redirectUris: uris,
      createdAt: new Date(),
    };
    await this.unitOfWork.run(null, (tx) => this.clients.insert(tx, client));
    return { clientId, clientSecret };
  }
}
