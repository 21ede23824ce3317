import { Command } from '@nestjs/cqrs';

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
