import { Injectable } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { isDuplicateEntry, isMissingParentRow } from '../../common/database/mysql-errors';
import { Account } from './account.entity';
import { AccountNotFoundError, EmailTakenError, EnterpriseNotFoundError } from './accounts.errors';
import { Enterprise } from './enterprise.entity';

/** The module's tables, registered with the data source (autoLoadEntities). */
export const accountTables = TypeOrmModule.forFeature([Account, Enterprise]);

/** The accounts table. Writes take the unit of work's `tx`; reads run outside any transaction. */
@Injectable()
export class AccountRepository {
  /** Held, not looked up per call: findById serves the auth directory's misses. */
  private readonly accounts: Repository<Account>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.accounts = dataSource.getRepository(Account);
  }

  /** The account, or null: one primary-key read (AccountDirectory loads through it). */
  findById(id: number): Promise<Account | null> {
    return this.accounts.findOneBy({ id });
  }

  /** The account of the e-mail (stored lower-cased), or null. */
  findByEmail(email: string): Promise<Account | null> {
    return this.accounts.findOneBy({ email });
  }

  async get(id: number, tx?: EntityManager): Promise<Account> {
    const account = await (tx?.getRepository(Account) ?? this.accounts).findOneBy({ id });
    if (!account) throw new AccountNotFoundError(id);
    return account;
  }

  /** The enterprise's members, by id. */
  membersOf(enterpriseId: number): Promise<Account[]> {
    return this.accounts.find({ where: { enterpriseId }, order: { id: 'ASC' } });
  }

  /** Inserts the account (its id set on it): 409 for a taken e-mail, 404 for no such enterprise. */
  async insert(tx: EntityManager, account: Account): Promise<void> {
    try {
      await tx.getRepository(Account).insert(account);
    } catch (e) {
      if (isDuplicateEntry(e)) throw new EmailTakenError(account.email);
      // The enterprise's foreign key: no such enterprise.
      if (isMissingParentRow(e) && account.enterpriseId !== null)
        throw new EnterpriseNotFoundError(account.enterpriseId);
      throw e;
    }
  }

  /** Changes the account's columns given (and its updatedAt), or 404. */
  async update(
    tx: EntityManager,
    id: number,
    changes: Partial<Omit<Account, 'id'>>,
  ): Promise<void> {
    const result = await tx
      .getRepository(Account)
      .update({ id }, { ...changes, updatedAt: new Date() });
    if (!result.affected) throw new AccountNotFoundError(id);
  }

  /**
   * Makes the account a member unless it is another enterprise's (adding again changes nothing):
   * one conditional update, so that two concurrent adds to two enterprises cannot both win.
   */
  async join(tx: EntityManager, accountId: number, enterpriseId: number): Promise<boolean> {
    const result = await tx
      .getRepository(Account)
      .createQueryBuilder()
      .update()
      .set({ enterpriseId, updatedAt: new Date() })
      .where('id = :accountId AND (enterprise_id IS NULL OR enterprise_id = :enterpriseId)', {
        accountId,
        enterpriseId,
      })
      .execute();
    return !!result.affected;
  }
}
