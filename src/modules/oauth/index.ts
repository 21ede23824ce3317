/*
 * What other modules use of OAuth (the app's API and CLI modules, the CLI's commands); they import
 * it from here, not from the module's files.
 */
export { OAuthClientsModule } from './oauth-clients.module';
export { oauthCommands } from './oauth.cli';
export { OAuthModule } from './oauth.module';
