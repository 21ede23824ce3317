import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { DAY, MINUTE } from '../../common/time/durations';
import { AccessTokens } from './access-tokens';
import type { AuthorizationRequest } from './authorization-request';
import type { OAuthClient } from './oauth-client.entity';
import { OAuthCode } from './oauth-code.entity';
import { InvalidGrantError } from './oauth.errors';
import { provesChallenge } from './pkce';

/** RFC 6749 §4.1.2 recommends at most 10 minutes. */
export const CODE_TTL_MS = 10 * MINUTE;
/** Codes expired this long ago are deleted (a few at each new one): their reuse is moot by then. */
const PURGE_AFTER_MS = DAY;
const PURGE_BATCH = 100;
const CODE = /^[0-9a-f]{64}$/;

interface ResultHeader {
  affectedRows: number;
}

/** What the token request sends with the code. */
export interface CodeExchange {
  code: string;
  redirectUri: string;
  codeVerifier: string | undefined;
}

/**
 * Authorization codes: issued on consent, exchanged once for an access token.
 *
 * The exchange consumes the code with one conditional UPDATE (`consumed_at IS NULL`): of two
 * requests racing with one code, exactly one sees affectedRows = 1. The token is inserted in the
 * same transaction, so a second use that finds the code consumed (its UPDATE waits for the first
 * transaction's row lock) also finds the token, and revokes it (RFC 6749 §4.1.2: a code used twice
 * may have been stolen; every token issued from it is revoked).
 */
@Injectable()
export class AuthorizationCodes {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: Secrets,
    private readonly tokens: AccessTokens,
  ) {}

  async issue(request: AuthorizationRequest, accountId: number): Promise<string> {
    const code = Secrets.generate(32);
    const now = new Date();
    await this.dataSource.getRepository(OAuthCode).insert({
      codeHash: this.secrets.hash(code),
      clientId: request.client.id,
      accountId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge ?? null,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      consumedAt: null,
      createdAt: now,
    });
    await this.dataSource.query('DELETE FROM oauth_codes WHERE expires_at < ? LIMIT ?', [
      new Date(now.getTime() - PURGE_AFTER_MS),
      PURGE_BATCH,
    ]);
    return code;
  }

  /** The access token for a code, or invalid_grant saying why not. */
  async exchange(client: OAuthClient, exchange: CodeExchange): Promise<string> {
    const codes = this.dataSource.getRepository(OAuthCode);
    const row = CODE.test(exchange.code)
      ? await codes.findOneBy({ codeHash: this.secrets.hash(exchange.code) })
      : null;
    if (!row) throw new InvalidGrantError('The authorization code is invalid.');
    // Another client's code is refused without consuming it: the app it was issued to may still.
    if (row.clientId !== client.id)
      throw new InvalidGrantError('The authorization code was issued to another client.');
    if (row.consumedAt) return this.reused(row.id);
    const now = new Date();
    if (row.expiresAt <= now) throw new InvalidGrantError('The authorization code has expired.');
    if (row.redirectUri !== exchange.redirectUri)
      throw new InvalidGrantError(
        'The redirect_uri does not match the one of the authorization request.',
      );
    this.checkPkce(row.codeChallenge, exchange.codeVerifier);

    const token = await this.dataSource.transaction(async (tx) => {
      const consumed: ResultHeader = await tx.query(
        'UPDATE oauth_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL AND expires_at > ?',
        [now, row.id, now],
      );
      if (consumed.affectedRows !== 1) return null;
      return this.tokens.issue(tx, {
        clientId: client.id,
        accountId: row.accountId,
        codeId: row.id,
      });
    });
    if (token !== null) return token;
    // Another request consumed it meanwhile (a reuse too), or it has just expired.
    const again = await codes.findOneBy({ id: row.id });
    if (again?.consumedAt) return this.reused(row.id);
    throw new InvalidGrantError('The authorization code has expired.');
  }

  private async reused(codeId: string): Promise<never> {
    await this.tokens.revokeIssuedFrom(codeId);
    throw new InvalidGrantError(
      'The authorization code has already been used; the access token issued for it is revoked.',
    );
  }

  /**
   * RFC 7636 §4.6. A verifier without a challenge is refused too (OAuth 2.0 Security BCP §4.8.2:
   * otherwise an attacker could strip the challenge from the authorization request).
   */
  private checkPkce(challenge: string | null, verifier: string | undefined): void {
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
}
