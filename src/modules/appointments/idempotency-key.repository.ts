import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { IdempotencyKey } from './idempotency-key.entity';

/** The `Idempotency-Key`s of bookings (see IdempotencyKeys). */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  find(accountId: number, key: string): Promise<IdempotencyKey | null> {
    return this.dataSource.getRepository(IdempotencyKey).findOneBy({ accountId, key });
  }

  /** Deletes the key's row as read (created at `createdAt`): an expired one. */
  async delete(row: IdempotencyKey): Promise<void> {
    const { accountId, key, createdAt } = row;
    await this.dataSource.getRepository(IdempotencyKey).delete({ accountId, key, createdAt });
  }

  async insert(tx: EntityManager, row: IdempotencyKey): Promise<void> {
    await tx.insert(IdempotencyKey, row);
  }
}
