import { CommandBus } from '@nestjs/cqrs';
import { type CliCommand, UsageError, requireString } from '../../common/cli/cli-command';
import { CreateOAuthClientCommand } from './oauth-client.commands';
import { isInsecureRedirectUri } from './redirect-uri';

export const oauthCommands: CliCommand[] = [
  {
    name: 'oauth-client:create',
    summary:
      'Registers a partner app (OAuth 2.0 client) with its exact redirect URIs; prints its client ID and secret (shown once).',
    options: {
      name: { type: 'string', required: true },
      'redirect-uri': { type: 'string', multiple: true, required: true },
    },
    run: async (app, o) => {
      const given = o['redirect-uri'];
      const uris = (Array.isArray(given) ? given : [given]).filter(
        (uri): uri is string => typeof uri === 'string',
      );
      if (uris.length === 0) throw new UsageError('--redirect-uri is required');
      const credentials = await app
        .get(CommandBus)
        .execute(new CreateOAuthClientCommand(requireString(o, 'name'), uris));
      // Allowed (development, internal apps), but codes would cross the network in clear.
      for (const uri of uris.filter(isInsecureRedirectUri))
        process.stderr.write(`warning: ${uri} is not https: use https beyond local development\n`);
      return credentials;
    },
  },
];
