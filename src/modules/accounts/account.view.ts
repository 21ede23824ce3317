import type { AppConfig } from '../../config/app-config';
import type { Account } from './account.entity';

/** `GET /me`, as clients of the reference service know it. */
export interface AccountView {
  id: number;
  email: string;
  name: string;
  timezone: string;
  currency: string;
  firstDayOfWeek: number;
  timeFormat: string;
  schedulingPage: string;
  plan: string;
}

export function toAccountView(account: Account, config: AppConfig): AccountView {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    timezone: account.timezone,
    currency: account.currency,
    firstDayOfWeek: account.firstDayOfWeek,
    timeFormat: account.timeFormat,
    schedulingPage: `${config.http.publicUrl}/schedule/${account.id}`,
    plan: account.plan,
  };
}
