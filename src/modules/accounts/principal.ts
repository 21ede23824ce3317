import type { Account } from './account.entity';

/** Who a request acts for, set by the auth guard (`request.user`). */
export interface Principal {
  accountId: number;
  account: Account;
  scheme: 'basic' | 'bearer';
  /** Set when an enterprise's credential acts on its member account (`/api/enterprise/v1/users/…`). */
  enterpriseId?: number;
}

export function principalOf(account: Account, scheme: Principal['scheme']): Principal {
  return { accountId: account.id, account, scheme };
}
