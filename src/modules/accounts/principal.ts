import type { Account } from './account.entity';

/** Who a request acts for, set by the auth guard (`request.user`). */
export interface Principal {
  accountId: number;
  account: Account;
  scheme: 'basic' | 'bearer';
}
