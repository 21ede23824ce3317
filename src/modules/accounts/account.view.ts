import type { AppConfig } from '../../config/app-config';
import type { Account } from './account.entity';
import type { SchemaObject } from '@nestjs/swagger';
import { id, int, oneOf, text, viewSchema, type ViewType } from '../../common/openapi/view-schema';

/** `GET /me`, as clients of the reference service know it. */
export type AccountView = ViewType<typeof ACCOUNT_VIEW>;

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

export const ACCOUNT_VIEW = viewSchema('AccountView', {
  id: id(42, 'The user ID.'),
  email: text('downtown@example.com'),
  name: text('Downtown Clinic'),
  timezone: text('America/New_York'),
  currency: text('USD'),
  firstDayOfWeek: int(0, '0 = Sunday, 1 = Monday.'),
  timeFormat: oneOf(['ampm', '24h'], 'ampm'),
  schedulingPage: text('https://scheduling.example.com/schedule/42'),
  plan: text('standard'),
});

/** The same inline, for the answers that extend it (the enterprise API's new member). */
export const ACCOUNT_VIEW_SCHEMA = {
  type: 'object' as const,
  additionalProperties: false,
  required: Object.keys(ACCOUNT_VIEW.properties),
  properties: ACCOUNT_VIEW.properties as Record<string, SchemaObject>,
};
