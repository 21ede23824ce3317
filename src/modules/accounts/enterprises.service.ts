import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { AppConfig } from '../../config/app-config';
import type { AccountCredentials } from './account-credentials';
import { Account } from './account.entity';
import { type AccountView, toAccountView } from './account.view';
import { assertName } from './account-rules';
import {
  AccountNotFoundError,
  AlreadyMemberError,
  EnterpriseNotFoundError,
  InvalidRequestsPerMinuteError,
} from './accounts.errors';
import { AuthRevocations } from './auth-revocations';
import { CreateAccountCommand, type NewAccount } from './create-account.command';
import { DEFAULT_ENTERPRISE_REQUESTS_PER_MINUTE, Enterprise } from './enterprise.entity';

/** The highest per-enterprise limit an operator may set (INT UNSIGNED holds more; no need). */
export const MAX_REQUESTS_PER_MINUTE = 100_000_000;

/** A member as `POST /users` answers it: the `/me` shape, and its own API key, shown once. */
export type NewMemberView = AccountView & { apiKey: string };

/**
 * Enterprises: created, keyed and limited by the operator (CLI), and their members (CLI and
 * `/api/enterprise/v1/users`). An account joins at most one enterprise and does not leave it
 * through the API.
 */
@Injectable()
export class EnterprisesService {
  constructor(
    @InjectRepository(Enterprise) private readonly enterprises: Repository<Enterprise>,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly secrets: Secrets,
    private readonly revocations: AuthRevocations,
    private readonly commands: CommandBus,
    private readonly config: AppConfig,
  ) {}

  async create(name: string): Promise<AccountCredentials> {
    const apiKey = Secrets.generate();
    const now = new Date();
    const enterprise = this.enterprises.create({
      name: assertName(name),
      apiKeyHash: this.secrets.hash(apiKey),
      apiKeyEncrypted: this.secrets.encrypt(apiKey),
      requestsPerMinute: DEFAULT_ENTERPRISE_REQUESTS_PER_MINUTE,
      createdAt: now,
      updatedAt: now,
    });
    await this.enterprises.insert(enterprise);
    return { id: enterprise.id, apiKey };
  }

  /** A new key; the old one stops working at once on every API process. */
  async rotateKey(enterpriseId: number): Promise<AccountCredentials> {
    const apiKey = Secrets.generate();
    const result = await this.enterprises.update(
      { id: enterpriseId },
      {
        apiKeyHash: this.secrets.hash(apiKey),
        apiKeyEncrypted: this.secrets.encrypt(apiKey),
        updatedAt: new Date(),
      },
    );
    if (!result.affected) throw new EnterpriseNotFoundError(enterpriseId);
    await this.revocations.announce({ kind: 'enterprise', id: enterpriseId });
    return { id: enterpriseId, apiKey };
  }

  async setLimit(
    enterpriseId: number,
    requestsPerMinute: number,
  ): Promise<{ id: number; requestsPerMinute: number }> {
    if (
      !Number.isInteger(requestsPerMinute) ||
      requestsPerMinute < 1 ||
      requestsPerMinute > MAX_REQUESTS_PER_MINUTE
    ) {
      throw new InvalidRequestsPerMinuteError(MAX_REQUESTS_PER_MINUTE);
    }
    const result = await this.enterprises.update(
      { id: enterpriseId },
      { requestsPerMinute, updatedAt: new Date() },
    );
    if (!result.affected) throw new EnterpriseNotFoundError(enterpriseId);
    await this.revocations.announce({ kind: 'enterprise', id: enterpriseId });
    return { id: enterpriseId, requestsPerMinute };
  }

  /**
   * Makes the account a member. One enterprise per account: the update only takes an account of no
   * enterprise (or of this one: adding again changes nothing), so two concurrent adds to two
   * enterprises cannot both win.
   */
  async addMember(
    enterpriseId: number,
    accountId: number,
  ): Promise<{ enterpriseId: number; accountId: number }> {
    await this.assertExists(enterpriseId);
    const result = await this.accounts
      .createQueryBuilder()
      .update()
      .set({ enterpriseId, updatedAt: new Date() })
      .where('id = :accountId AND (enterprise_id IS NULL OR enterprise_id = :enterpriseId)', {
        accountId,
        enterpriseId,
      })
      .execute();
    if (!result.affected) {
      const account = await this.accounts.findOneBy({ id: accountId });
      if (!account) throw new AccountNotFoundError(accountId);
      throw new AlreadyMemberError(accountId, account.enterpriseId ?? enterpriseId);
    }
    // The enterprise's credential now passes on the member's routes, on every API process.
    await this.revocations.announce({ kind: 'account', id: accountId });
    return { enterpriseId, accountId };
  }

  /** The members, in the `/me` shape, by id. */
  async members(enterpriseId: number): Promise<AccountView[]> {
    const rows = await this.accounts.find({ where: { enterpriseId }, order: { id: 'ASC' } });
    return rows.map((account) => toAccountView(account, this.config));
  }

  /** A new account, member of the enterprise from the start. */
  async createMember(
    enterpriseId: number,
    account: Omit<NewAccount, 'enterpriseId' | 'password'>,
  ): Promise<NewMemberView> {
    const { id, apiKey } = await this.commands.execute(
      new CreateAccountCommand({ ...account, enterpriseId }),
    );
    const created = await this.accounts.findOneByOrFail({ id });
    return { ...toAccountView(created, this.config), apiKey };
  }

  private async assertExists(enterpriseId: number): Promise<void> {
    if (!(await this.enterprises.existsBy({ id: enterpriseId }))) {
      throw new EnterpriseNotFoundError(enterpriseId);
    }
  }
}
