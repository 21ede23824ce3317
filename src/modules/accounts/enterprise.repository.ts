import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { EnterpriseNotFoundError } from './accounts.errors';
import { Enterprise } from './enterprise.entity';

/** The enterprises table. Writes take the unit of work's `tx`. */
@Injectable()
export class EnterpriseRepository {
  /** Held, not looked up per call: findById serves the auth directory's misses. */
  private readonly enterprises: Repository<Enterprise>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.enterprises = dataSource.getRepository(Enterprise);
  }

  /** The enterprise, or null: one primary-key read (EnterpriseDirectory loads through it). */
  findById(id: number): Promise<Enterprise | null> {
    return this.enterprises.findOneBy({ id });
  }

  async assertExists(tx: EntityManager, id: number): Promise<void> {
    if (!(await tx.getRepository(Enterprise).existsBy({ id })))
      throw new EnterpriseNotFoundError(id);
  }

  async insert(tx: EntityManager, enterprise: Enterprise): Promise<void> {
    await tx.getRepository(Enterprise).insert(enterprise);
  }

  /** Changes the enterprise's columns given (and its updatedAt), or 404. */
  async update(
    tx: EntityManager,
    id: number,
    changes: Partial<Omit<Enterprise, 'id'>>,
  ): Promise<void> {
    const result = await tx
      .getRepository(Enterprise)
      .update({ id }, { ...changes, updatedAt: new Date() });
    if (!result.affected) throw new EnterpriseNotFoundError(id);
  }
}
