import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Enterprise } from './enterprise.entity';
import { LockVersionColumn } from '../../common/database/row-locks';
import { DEFAULT_LANGUAGE, type Language } from '../../common/i18n/languages';

@Entity('accounts')
@Index('uq_accounts_email', ['email'], { unique: true })
@Index('idx_accounts_enterprise', ['enterpriseId'])
export class Account {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  /** The account's user ID: the Basic-auth username. */
  @PrimaryGeneratedColumn({ type: 'int', unsigned: true })
  id!: number;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** IANA zone name. */
  @Column({ type: 'varchar', length: 64 })
  timezone!: string;

  @Column({ type: 'char', length: 3, default: 'USD' })
  currency!: string;

  /** 0 = Sunday, 1 = Monday. */
  @Column({ name: 'first_day_of_week', type: 'tinyint', unsigned: true, default: 0 })
  firstDayOfWeek!: number;

  /** `ampm` or `24h`. */
  @Column({ name: 'time_format', type: 'varchar', length: 8, default: 'ampm' })
  timeFormat!: string;

  @Column({ type: 'varchar', length: 32, default: 'standard' })
  plan!: string;

  /* Settings: the account-wide booking rules (`GET/PUT /settings`). */

  /** Clients cannot book sooner than this many hours from now (a type may override it). */
  @Column({ name: 'min_hours_in_advance', type: 'int', unsigned: true, default: 0 })
  minHoursInAdvance!: number;

  /** Clients cannot book further ahead than this many days (a type may override it). */
  @Column({ name: 'max_days_in_advance', type: 'int', unsigned: true, default: 60 })
  maxDaysInAdvance!: number;

  /** How often, in minutes, the worker reads the busy time of the account's calendar sources. */
  @Column({ name: 'calendar_sync_minutes', type: 'smallint', unsigned: true, default: 5 })
  calendarSyncMinutes!: number;

  @Column({ name: 'require_phone', type: 'boolean', default: false })
  requirePhone!: boolean;

  @Column({ name: 'send_confirmation_email', type: 'boolean', default: true })
  sendConfirmationEmail!: boolean;

  @Column({ name: 'send_sms', type: 'boolean', default: true })
  sendSms!: boolean;

  /** Clients are reminded this many hours before their appointment (e-mail and SMS); 0 = never. */
  @Column({ name: 'reminder_hours', type: 'smallint', unsigned: true, default: 24 })
  reminderHours!: number;

  /** The longest a slot hold lasts from its creation, in minutes (1–30). */
  @Column({ name: 'hold_max_minutes', type: 'tinyint', unsigned: true, default: 30 })
  holdMaxMinutes!: number;

  /** At most this many live slot holds made through the API at once (1–10000). */
  @Column({ name: 'max_live_holds', type: 'smallint', unsigned: true, default: 100 })
  maxLiveHolds!: number;

  /** At most this many live holds of the scheduling page at once from one network (0–50). */
  @Column({ name: 'page_holds_per_address', type: 'tinyint', unsigned: true, default: 3 })
  pageHoldsPerAddress!: number;

  /** The percentage of a day's offered times that holds of the scheduling page may take (0–100). */
  @Column({ name: 'page_hold_day_share', type: 'tinyint', unsigned: true, default: 50 })
  pageHoldDayShare!: number;

  /**
   * Incremented first by every slot hold's transaction, so that an account's holds are checked
   * against its caps one after the other (docs/api.md, Slot holds). Never read.
   */
  @Column({ name: 'hold_claims', type: 'bigint', unsigned: true, default: 0, select: false })
  holdClaims!: string;
  /**
   * Clients (the confirmation page, the API without `admin=true`) may cancel or reschedule until
   * this many hours before the start; 0: until it starts.
   */
  @Column({ name: 'client_change_min_hours', type: 'int', unsigned: true, default: 0 })
  clientChangeMinHours!: number;

  /** The origins (`https://shop.example`) that may frame the client pages (`frame-ancestors`). */
  @Column({ name: 'embed_origins', type: 'json', nullable: true })
  embedOrigins!: string[] | null;

  /** The client pages', e-mails' and SMS' language (a booking made on a page keeps its own). */
  @Column({ type: 'varchar', length: 5, default: DEFAULT_LANGUAGE })
  language!: Language;

  /** `#rrggbb`, lower case: the pages' buttons, links and focus outline; null: the house colour. */
  @Column({ name: 'accent_color', type: 'char', length: 7, nullable: true })
  accentColor!: string | null;

  /** An https URL of the business's logo, atop every page (its origin in the pages' CSP). */
  @Column({ name: 'logo_url', type: 'varchar', length: 2048, nullable: true })
  logoUrl!: string | null;

  /** scrypt hash of the login password (OAuth consent); null until an operator sets one. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash!: string | null;

  /** Keyed hash of the API key: how a presented key is recognised. */
  @Column({ name: 'api_key_hash', type: 'char', length: 64 })
  apiKeyHash!: string;

  /** The API key encrypted with the server secret: it keys webhook signatures. */
  @Column({ name: 'api_key_encrypted', type: 'varchar', length: 255 })
  apiKeyEncrypted!: string;

  /** The enterprise whose credential may act on this account (at most one); null: none. */
  @ForeignKey(() => Enterprise, {
    name: 'fk_accounts_enterprise',
    onDelete: 'RESTRICT',
    onUpdate: 'RESTRICT',
  })
  @Column({ name: 'enterprise_id', type: 'int', unsigned: true, nullable: true })
  enterpriseId!: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3 })
  updatedAt!: Date;
}
