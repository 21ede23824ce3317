import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Account } from './account.entity';
import { assertEmbedOrigin, assertTimezone } from './account-rules';
import { AuthRevocations } from './auth-revocations';
import type { UpdateSettingsRequest } from './settings.requests';
import { type SettingsView, toSettingsView } from './settings.view';

@Injectable()
export class SettingsService {
  constructor(
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly revocations: AuthRevocations,
  ) {}

  /** Read from the database, not the auth cache: an owner sees a change of another pod at once. */
  async get(accountId: number): Promise<SettingsView> {
    return toSettingsView(await this.accounts.findOneByOrFail({ id: accountId }));
  }

  async update(accountId: number, request: UpdateSettingsRequest): Promise<SettingsView> {
    const changes: Partial<Account> = {};
    if (request.timezone !== undefined) changes.timezone = assertTimezone(request.timezone);
    if (request.minHoursInAdvance !== undefined)
      changes.minHoursInAdvance = request.minHoursInAdvance;
    if (request.maxDaysInAdvance !== undefined) changes.maxDaysInAdvance = request.maxDaysInAdvance;
    if (request.requirePhone !== undefined) changes.requirePhone = request.requirePhone;
    if (request.sendConfirmationEmail !== undefined)
      changes.sendConfirmationEmail = request.sendConfirmationEmail;
    if (request.sendSms !== undefined) changes.sendSms = request.sendSms;
    if (request.reminderHours !== undefined) changes.reminderHours = request.reminderHours;
    if (request.calendarSyncMinutes !== undefined)
      changes.calendarSyncMinutes = request.calendarSyncMinutes;
    if (request.holdMaxMinutes !== undefined) changes.holdMaxMinutes = request.holdMaxMinutes;
    if (request.maxLiveHolds !== undefined) changes.maxLiveHolds = request.maxLiveHolds;
    if (request.pageHoldsPerAddress !== undefined)
      changes.pageHoldsPerAddress = request.pageHoldsPerAddress;
    if (request.pageHoldDayShare !== undefined) changes.pageHoldDayShare = request.pageHoldDayShare;
    if (request.clientChangeMinHours !== undefined)
      changes.clientChangeMinHours = request.clientChangeMinHours;
    if (request.embedOrigins !== undefined)
      changes.embedOrigins = [...new Set(request.embedOrigins.map(assertEmbedOrigin))];
    if (Object.keys(changes).length > 0) {
      await this.accounts.update({ id: accountId }, { ...changes, updatedAt: new Date() });
      // The cached account (GET /me, the principal booking reads) must not keep the old zone or
      // rules, on any API process.
      await this.revocations.announce({ kind: 'account', id: accountId });
    }
    return this.get(accountId);
  }
}
