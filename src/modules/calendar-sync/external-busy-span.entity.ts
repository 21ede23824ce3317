import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Busy time a source read, at most a day a row (read by availability's busy-time.repository). */
@Entity('external_busy_spans')
@Index('idx_external_busy_calendar', ['calendarId', 'startsAt', 'endsAt'])
@Index('idx_external_busy_source', ['sourceId'])
export class ExternalBusySpan {
  @PrimaryGeneratedColumn({ type: 'bigint', unsigned: true })
  id!: string;

  @Column({ name: 'account_id', type: 'int', unsigned: true })
  accountId!: number;

  @Column({ name: 'calendar_id', type: 'int', unsigned: true })
  calendarId!: number;

  @Column({ name: 'source_id', type: 'int', unsigned: true })
  sourceId!: number;

  @Column({ name: 'starts_at', type: 'datetime', precision: 3 })
  startsAt!: Date;

  @Column({ name: 'ends_at', type: 'datetime', precision: 3 })
  endsAt!: Date;
}
