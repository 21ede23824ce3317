import { Column, Entity, Index } from 'typeorm';
import { TenantEntity } from '../../common/database/tenant-entity';
import { LockVersionColumn } from '../../common/database/row-locks';

export const BUSY_SOURCE_TYPES = ['ics', 'caldav'] as const;
export type BusySourceType = (typeof BUSY_SOURCE_TYPES)[number];

/**
 * A source's state (see docs/calendar-sync.md): `pending` until its first sync, `ok` when the last
 * one read it, `error` when the last one failed (its last good spans still count).
 */
export type BusySourceState = 'pending' | 'ok' | 'error';

/** What a source's sealed password is for: a value sealed for one source opens for no other. */
export function passwordContext(sourceId: number): string {
  return `busy-source:${sourceId}`;
}

/** A calendar's external calendar whose busy time blocks its slots. */
@Entity('busy_sources')
@Index('idx_busy_sources_calendar', ['calendarId', 'id'])
@Index('idx_busy_sources_due', ['nextSyncAt'])
export class BusySource extends TenantEntity {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  @Column({ type: 'varchar', length: 8 })
  type!: BusySourceType;

  @Column({ type: 'varchar', length: 2048 })
  url!: string;

  @Column({ type: 'varchar', length: 255, default: '' })
  username!: string;

  /** The password sealed with APP_SECRET (Secrets.encrypt, context `busy-source:<id>`); never shown. */
  @Column({ name: 'sealed_password', type: 'text', nullable: true })
  sealedPassword!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state!: BusySourceState;

  /** The last attempt, whatever it came to. */
  @Column({ name: 'last_sync_at', type: 'datetime', precision: 3, nullable: true })
  lastSyncAt!: Date | null;

  /** The last attempt that read the source (unchanged included). */
  @Column({ name: 'last_success_at', type: 'datetime', precision: 3, nullable: true })
  lastSuccessAt!: Date | null;

  @Column({ name: 'last_error', type: 'varchar', length: 1000, nullable: true })
  lastError!: string | null;

  /** Events (occurrences in the window, after the free and cancelled ones are left out) last read. */
  @Column({ name: 'events_read', type: 'int', unsigned: true, default: 0 })
  eventsRead!: number;

  /** What says the source has not changed since its spans were read: the feed's ETag, the ctag. */
  @Column({ name: 'version_tag', type: 'varchar', length: 1000, nullable: true })
  versionTag!: string | null;

  @Column({ name: 'next_sync_at', type: 'datetime', precision: 3 })
  nextSyncAt!: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
