import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** What a feed's sealed token is for: a value sealed for one calendar opens for no other. */
export function feedTokenContext(calendarId: number): string {
  return `calendar-feed:${calendarId}`;
}

/** The secret of a calendar's published feed: its hash to find it, the token sealed to show it. */
@Entity('calendar_feeds')
@Index('uq_calendar_feeds_token', ['tokenHash'], { unique: true })
export class CalendarFeed {
  @PrimaryColumn({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @Column({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'sealed_token', type: 'varchar', length: 255 })
  sealedToken!: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;
}
