import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Secrets } from '../../common/crypto/secrets';
import { UnitOfWork } from '../../common/database/unit-of-work';
import { DAY, MINUTE } from '../../common/time/durations';
import { AuthRevocations } from '../accounts';
import type { AuthorizationRequest } from './authorization-request';
import {
  ClientRequestCommand,
  authenticateClient,
  param,
  requiredParam,
} from './client-authentication';
import type { OAuthCode } from './oauth-code.entity';
import { OAuthClientRepository } from './oauth-client.repository';
import { OAuthCodeRepository } from './oauth-code.repository';
import { OAuthTokenRepository } from './oauth-token.repository';
import {
  API_SCOPE,
  InvalidGrantError,
  InvalidRequestError,
  OAuthEndpointError,
} from './oauth.errors';
import { CODE_VERIFIER, provesChallenge } from './pkce';

/** RFC 6749 §4.1.2 recommends at most 10 minutes. */
const CODE_TTL_MS = 10 * MINUTE;
/** Codes expired this long ago are deleted, a few at each new one (their reuse is moot by then). */
const PURGE_AFTER_MS = DAY;
const PURGE_BATCH = 100;
const CODE = /^[0-9a-f]{64}$/;

/** The consent page's Allow: a code for the app, to exchange once for an access token. */
export class IssueAuthorizationCodeCommand extends Command<string> {
  constructor(
    readonly request: AuthorizationRequest,
    readonly accountId: number,
  ) {
    super();
  }
}

@CommandHandler(IssueAuthorizationCodeCommand)
export class IssueAuthorizationCodeHandler implements ICommandHandler<IssueAuthorizationCodeCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly codes: OAuthCodeRepository,
    private readonly secrets: Secrets,
  ) {}

  async execute({ request, accountId }: IssueAuthorizationCodeCommand): Promise<string> {
    const code = Secrets.generate(32);
    const now = new Date();
    await this.unitOfWork.run(accountId, async (tx) => {
      await this.codes.insert(tx, {
        codeHash: this.secrets.hash(code),
        clientId: request.client.id,
        accountId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge ?? null,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        consumedAt: null,
        createdAt: now,
      });
      await this.codes.purgeExpired(tx, new Date(now.getTime() - PURGE_AFTER_MS), PURGE_BATCH);
    });
    return code;
  }
}

/**
 * `POST /oauth2/token` once its shape and grant type are checked: the client, the code's
 * parameters, then the code, exchanged for an access token or refused with invalid_grant.
 *
 * One conditional UPDATE (`consumed_at IS NULL`) consumes the code: of two requests racing with it,
 * exactly one consumes it. The token is inserted in the same transaction, so a second use (whose
 * UPDATE waits for the first's row lock) finds the token too, and revokes it (RFC 6749 §4.1.2: a
 * code used twice may have been stolen).
 */
export class ExchangeAuthorizationCodeCommand extends ClientRequestCommand<string> {}

@CommandHandler(ExchangeAuthorizationCodeCommand)
export class ExchangeAuthorizationCodeHandler implements ICommandHandler<ExchangeAuthorizationCodeCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly clients: OAuthClientRepository,
    private readonly codes: OAuthCodeRepository,
    private readonly tokens: OAuthTokenRepository,
    private readonly secrets: Secrets,
    private readonly revocations: AuthRevocations,
  ) {}

  async execute({ authorization, form }: ExchangeAuthorizationCodeCommand): Promise<string> {
    const client = await authenticateClient(this.clients, this.secrets, authorization, form);
    const code = requiredParam(form, 'code');
    const redirectUri = requiredParam(form, 'redirect_uri');
    const codeVerifier = param(form, 'code_verifier');
    if (codeVerifier !== undefined && !CODE_VERIFIER.test(codeVerifier))
      throw new InvalidRequestError(
        'The code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~".',
      );
    // RFC 6749 defines no scope here; one that is sent must be the scope the code grants.
    const scope = param(form, 'scope');
    if (scope !== undefined && scope !== API_SCOPE)
      throw new OAuthEndpointError(400, 'invalid_scope', `The scope must be "${API_SCOPE}".`);

    const row = CODE.test(code) ? await this.codes.find(this.secrets.hash(code)) : null;
    if (!row) throw new InvalidGrantError('The authorization code is invalid.');
    // Another client's code is refused without consuming it: the app it was issued to may still.
    if (row.clientId !== client.id)
      throw new InvalidGrantError('The authorization code was issued to another client.');
    if (row.consumedAt) return this.reused(row);
    const now = new Date();
    if (row.expiresAt <= now) throw new InvalidGrantError('The authorization code has expired.');
    if (row.redirectUri !== redirectUri)
      throw new InvalidGrantError(
        'The redirect_uri does not match the one of the authorization request.',
      );
    checkPkce(row.codeChallenge, codeVerifier);

    const token = await this.unitOfWork.run(row.accountId, async (tx) => {
      if (!(await this.codes.consume(tx, row.id, now))) return null;
      const token = Secrets.generate(32);
      await this.tokens.insert(tx, {
        tokenHash: this.secrets.hash(token),
        clientId: client.id,
        accountId: row.accountId,
        codeId: row.id,
        createdAt: new Date(),
        revokedAt: null,
      });
      return token;
    });
    if (token !== null) return token;
    // Another request consumed it meanwhile (a reuse too), or it has just expired.
    const again = await this.codes.findById(row.id);
    if (again?.consumedAt) return this.reused(row);
    throw new InvalidGrantError('The authorization code has expired.');
  }

  /** Disables every token issued from the code, on every API process (announced after the commit). */
  private async reused(code: OAuthCode): Promise<never> {
    await this.unitOfWork.run(code.accountId, (tx) => this.tokens.revokeIssuedFrom(tx, code.id));
    await this.revocations.announce({ kind: 'code', id: code.id });
    throw new InvalidGrantError(
      'The authorization code has already been used; the access token issued for it is revoked.',
    );
  }
}

/**
 * RFC 7636 §4.6. A verifier without a challenge is refused too (OAuth 2.0 Security BCP §4.8.2:
 * otherwise an attacker could strip the challenge from the authorization request).
 */
function checkPkce(challenge: string | null, verifier: string | undefined): void {
  if (challenge === null) {
    if (verifier !== undefined)
      throw new InvalidGrantError(
        'The authorization request had no code_challenge: send no code_verifier.',
      );
    return;
  }
  if (verifier === undefined)
    throw new InvalidGrantError(
      'The code_verifier is missing: the authorization request had a code_challenge.',
    );
  if (!provesChallenge(verifier, challenge))
    throw new InvalidGrantError('The code_verifier does not match the code_challenge.');
}
