import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Secrets } from '../../common/crypto/secrets';
import { ForbiddenError, NotFoundError } from '../../common/errors/domain-error';
import { findOwned } from '../../common/database/tenant-rows';
import { checkOutboundTarget } from '../../common/net/outbound-target';
import { checkTargetAddresses } from '../../common/net/target-resolution';
import { AppConfig } from '../../config/app-config';
import { Calendar } from '../catalog';
import { BusySource } from './busy-source.entity';
import type { CreateBusySourceRequest } from './busy-source.requests';
import { type BusySourceView, toBusySourceView } from './busy-source.view';
import {
  InvalidSourceUrlError,
  MAX_SOURCES_PER_CALENDAR,
  TooManySourcesError,
} from './calendar-sync.errors';

/** What a source's sealed password is for: a value sealed for one source opens for no other. */
export function passwordContext(sourceId: number): string {
  return `busy-source:${sourceId}`;
}

/**
 * `/calendars/{id}/busy-sources`: the staff's own calendars whose busy time blocks the calendar.
 * Another account's calendar is 403, as everywhere (the contract's access rule); a source is found
 * under its own calendar only. A new source is due at once: the worker reads it within a scan.
 */
@Injectable()
export class BusySourcesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secrets: Secrets,
    private readonly config: AppConfig,
  ) {}

  async list(accountId: number, calendarId: number): Promise<BusySourceView[]> {
    await this.calendar(accountId, calendarId);
    const sources = await this.dataSource.manager.find(BusySource, {
      where: { calendarId, accountId },
      order: { id: 'ASC' },
    });
    return sources.map(toBusySourceView);
  }

  async get(accountId: number, calendarId: number, id: number): Promise<BusySourceView> {
    return toBusySourceView(await this.source(accountId, calendarId, id));
  }

  async create(
    accountId: number,
    calendarId: number,
    request: CreateBusySourceRequest,
  ): Promise<BusySourceView> {
    const check = checkOutboundTarget(request.url, this.config.calendarSync);
    if (!check.ok) throw new InvalidSourceUrlError(check.reason);
    // A name is resolved too, before the transaction: one that points inside is refused now, not
    // found out by every sync (which checks again: names change).
    const resolved = await checkTargetAddresses(check.url, this.config.calendarSync);
    if (!resolved.ok) throw new InvalidSourceUrlError(resolved.reason);
    return this.dataSource.transaction(async (tx) => {
      // The calendar's row locked: two creations at once count each other.
      await this.calendar(accountId, calendarId, true, tx.getRepository(Calendar));
      const count = await tx.count(BusySource, { where: { calendarId } });
      if (count >= MAX_SOURCES_PER_CALENDAR) throw new TooManySourcesError();
      const now = new Date();
      const source = await tx.save(
        tx.create(BusySource, {
          accountId,
          calendarId,
          type: request.type,
          url: request.url,
          username: request.username ?? '',
          sealedPassword: null,
          state: 'pending',
          lastSyncAt: null,
          lastSuccessAt: null,
          lastError: null,
          eventsRead: 0,
          versionTag: null,
          nextSyncAt: now,
          createdAt: now,
        }),
      );
      if (request.password !== undefined && request.password !== '') {
        // Sealed with its own id as context, so the row must exist first.
        source.sealedPassword = this.secrets.encrypt(request.password, passwordContext(source.id));
        await tx.update(BusySource, { id: source.id }, { sealedPassword: source.sealedPassword });
      }
      return toBusySourceView(source);
    });
  }

  /** The source and the busy time it brought, in one transaction. */
  async delete(accountId: number, calendarId: number, id: number): Promise<void> {
    const source = await this.source(accountId, calendarId, id);
    await this.dataSource.transaction(async (tx) => {
      await tx.query('DELETE FROM busy_sources WHERE id = ?', [source.id]);
      await tx.query('DELETE FROM external_busy_spans WHERE source_id = ?', [source.id]);
    });
  }

  private calendar(
    accountId: number,
    calendarId: number,
    forUpdate = false,
    repository = this.dataSource.getRepository(Calendar),
  ): Promise<Calendar> {
    return findOwned(repository, accountId, calendarId, { forUpdate });
  }

  private async source(accountId: number, calendarId: number, id: number): Promise<BusySource> {
    await this.calendar(accountId, calendarId);
    const source = await this.dataSource.manager.findOne(BusySource, { where: { id } });
    if (!source || source.calendarId !== calendarId) throw new NotFoundError();
    if (source.accountId !== accountId) throw new ForbiddenError();
    return source;
  }
}
