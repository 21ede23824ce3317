import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { OAuthCode } from './oauth-code.entity';
import { OAuthToken } from './oauth-token.entity';

/** The tables of what OAuth grants: codes, then tokens. */
export const OAuthGrantTables = TypeOrmModule.forFeature([OAuthCode, OAuthToken]);

/** Access tokens, by the keyed hash of the token (the token itself is never stored). */
@Injectable()
export class OAuthTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** What a Bearer request needs of its token: one indexed read, on every request the cache misses. */
  grantOf(
    tokenHash: string,
  ): Promise<Pick<OAuthToken, 'accountId' | 'codeId' | 'revokedAt'> | null> {
    return this.dataSource.getRepository(OAuthToken).findOne({
      select: { accountId: true, codeId: true, revokedAt: true },
      where: { tokenHash },
    });
  }

  find(tokenHash: string): Promise<OAuthToken | null> {
    return this.dataSource.getRepository(OAuthToken).findOneBy({ tokenHash });
  }

  async insert(tx: EntityManager, token: Omit<OAuthToken, 'id'>): Promise<void> {
    await tx.getRepository(OAuthToken).insert(token);
  }

  async revoke(tx: EntityManager, id: string): Promise<void> {
    await tx.query('UPDATE oauth_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [
      new Date(),
      id,
    ]);
  }

  /** Disables every token issued from the code; answers how many were enabled. */
  async revokeIssuedFrom(tx: EntityManager, codeId: string): Promise<number> {
    const result: { affectedRows: number } = await tx.query(
      'UPDATE oauth_tokens SET revoked_at = ? WHERE code_id = ? AND revoked_at IS NULL',
      [new Date(), codeId],
    );
    return result.affectedRows;
  }
}
