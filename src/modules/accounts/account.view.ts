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

/** AccountView as the OpenAPI document describes it. */
export const ACCOUNT_VIEW_SCHEMA = {
  type: 'object' as const,
  required: [
    'id',
    'email',
    'name',
    'timezone',
    'currency',
    'firstDayOfWeek',
    'timeFormat',
    'schedulingPage',
    'plan',
  ],
  properties: {
    id: { type: 'integer' as const, description: 'The user ID.', example: 42 },
    email: { type: 'string' as const, example: 'downtown@example.com' },
    name: { type: 'string' as const, example: 'Downtown Clinic' },
    timezone: { type: 'string' as const, example: 'America/New_York' },
    currency: { type: 'string' as const, example: 'USD' },
    firstDayOfWeek: {
      type: 'integer' as const,
      description: '0 = Sunday, 1 = Monday.',
      example: 0,
    },
    timeFormat: { type: 'string' as const, enum: ['ampm', '24h'], example: 'ampm' },
    schedulingPage: {
      type: 'string' as const,
      example: 'https://scheduling.example.com/schedule/42',
    },
    plan: { type: 'string' as const, example: 'standard' },
  },
};
