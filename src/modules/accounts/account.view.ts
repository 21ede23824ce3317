import type { AppConfig } from '../../config/app-config';
import type { Account } from './account.entity';
import { id, int, text, viewSchema } from '../../common/openapi/view-schema';

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

export const ACCOUNT_VIEW = viewSchema<AccountView>('AccountView', {
  id: id(1),
  email: text('owner@example.com'),
  name: text('Studio'),
  timezone: text('America/New_York'),
  currency: text('USD'),
  firstDayOfWeek: int(0, '0 Sunday … 6 Saturday.'),
  timeFormat: text('12'),
  schedulingPage: text('https://scheduling.example/schedule/1'),
  plan: text('standard'),
});
