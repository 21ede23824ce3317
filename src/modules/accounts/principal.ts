import type { Account } from './account.entity';

/** Who a request acts for, set by the auth guard (`request.user`). */
export interface Principal {
  accountId: number;
  account: Account;
  scheme: 'basic' | 'bearer';
}

/** The principal of an account authenticated by `scheme`. */
export function principalOf(account: Account, scheme: Principal['scheme']): Principal {
  return { accountId: account.id, account, scheme };
}
