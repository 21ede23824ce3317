import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Secrets } from '../../common/crypto/secrets';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { AuthRevocations } from '../accounts';
import { TOKEN } from './access-tokens';
import { ClientRequestCommand, authenticateClient, requiredParam } from './client-authentication';
import { OAuthClientRepository } from './oauth-client.repository';
import { OAuthTokenRepository } from './oauth-token.repository';
import { InvalidGrantError } from './oauth.errors';

/** Disables the client's token: unknown or disabled is a no-op (RFC 7009), another's refused. */
export class DisconnectAccessTokenCommand extends ClientRequestCommand<void> {}

@CommandHandler(DisconnectAccessTokenCommand)
export class DisconnectAccessTokenHandler implements ICommandHandler<DisconnectAccessTokenCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clients: OAuthClientRepository,
    private readonly tokens: OAuthTokenRepository,
    private readonly secrets: Secrets,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ authorization, form }: DisconnectAccessTokenCommand): Promise<void> {
    const client = await authenticateClient(this.clients, this.secrets, authorization, form);
    const token = requiredParam(form, 'access_token');
    if (!TOKEN.test(token)) return;
    const hash = this.secrets.hash(token);
    const row = await this.tokens.find(hash);
    if (!row) return;
    if (row.clientId !== client.id)
      throw new InvalidGrantError('The access token was issued to another client.');
    await this.unitOfWork.run(row.accountId, (tx) => this.tokens.revoke(tx, row.id));
    // Every API process drops the token from its cache, once the disabling is committed.
    await this.revocations.announce({ kind: 'token', id: hash });
  }
}
