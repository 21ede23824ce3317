import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { OAuthCode } from './oauth-code.entity';

/** Authorization codes, by the keyed hash of the code (the code itself is never stored). */
@Injectable()
export class OAuthCodeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(codeHash: string): Promise<OAuthCode | null> {
    return this.dataSource.getRepository(OAuthCode).findOneBy({ codeHash });
  }

  findById(id: string): Promise<OAuthCode | null> {
    return this.dataSource.getRepository(OAuthCode).findOneBy({ id });
  }

  async insert(tx: EntityManager, code: Omit<OAuthCode, 'id'>): Promise<void> {
    await tx.getRepository(OAuthCode).insert(code);
  }

  /** Deletes up to `limit` codes that expired before `before`, of any account. */
  async purgeExpired(tx: EntityManager, before: Date, limit: number): Promise<void> {
    await tx.query('DELETE FROM oauth_codes WHERE expires_at < ? LIMIT ?', [before, limit]);
  }

  /**
   * Marks the code consumed unless consumed or expired: true for exactly one of the requests racing
   * with it (the others wait for its row lock, then see it consumed).
   */
  async consume(tx: EntityManager, id: string, now: Date): Promise<boolean> {
    const consumed: { affectedRows: number } = await tx.query(
      'UPDATE oauth_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL AND expires_at > ?',
      [now, id, now],
    );
    return consumed.affectedRows === 1;
  }
}
