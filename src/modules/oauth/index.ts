/* What the app's API and CLI modules use of OAuth; they import it from here, not its files. */
export { OAuthClientsModule } from './oauth-clients.module';
export { oauthCommands } from './oauth.cli';
export { OAuthModule } from './oauth.module';
