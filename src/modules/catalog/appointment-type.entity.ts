import type { RecurrenceSettings } from './recurrence-settings';
import type { Assignment, AssignmentWeights } from './team-assignment';
import { Column, Entity, Index } from 'typeorm';
import { CatalogRow } from './catalog-row.entity';
import { LockVersionColumn } from '../../common/database/row-locks';

export const APPOINTMENT_KINDS = ['service', 'class'] as const;
export type AppointmentKind = (typeof APPOINTMENT_KINDS)[number];

/** What clients book: a service (one client at a time) or a class (sessions with seats). */
@Entity('appointment_types')
@Index('idx_appointment_types_account', ['accountId', 'id'])
export class AppointmentType extends CatalogRow {
  /** Written by a lock (lockRows), never read: docs/architecture.md, "Locks are writes". */
  @LockVersionColumn()
  readonly lockVersion?: number;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** Inactive types stay listed but are not offered to clients. */
  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'text' })
  description!: string;

  /** Minutes. */
  @Column({ type: 'smallint', unsigned: true })
  duration!: number;

  @Column({ name: 'price_cents', type: 'int', unsigned: true, default: 0 })
  priceCents!: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  category!: string;

  @Column({ type: 'varchar', length: 32, default: '' })
  color!: string;

  /** Hidden from the public scheduling page; bookable by direct link and through the API. */
  @Column({ type: 'boolean', default: false })
  private!: boolean;

  @Column({ type: 'varchar', length: 8 })
  kind!: AppointmentKind;

  /** Seats of each session (class types); null for services. */
  @Column({ name: 'class_size', type: 'int', unsigned: true, nullable: true })
  classSize!: number | null;

  /** Minutes kept free before and after, counted when checking overlaps. */
  @Column({ name: 'padding_before', type: 'smallint', unsigned: true, default: 0 })
  paddingBefore!: number;

  @Column({ name: 'padding_after', type: 'smallint', unsigned: true, default: 0 })
  paddingAfter!: number;

  @Column({ type: 'varchar', length: 2048, default: '' })
  image!: string;

  /** Minutes between offered start times; null = the duration. */
  @Column({ name: 'slot_interval', type: 'smallint', unsigned: true, nullable: true })
  slotInterval!: number | null;

  /** Override the account's rules when set. */
  @Column({ name: 'min_hours_in_advance', type: 'int', unsigned: true, nullable: true })
  minHoursInAdvance!: number | null;

  @Column({ name: 'max_days_in_advance', type: 'int', unsigned: true, nullable: true })
  maxDaysInAdvance!: number | null;

  @Column({ name: 'require_sms_opt_in', type: 'boolean', default: false })
  requireSmsOptIn!: boolean;

  /** At most this many live appointments a local day of the calendar's zone; null: no limit. */
  @Column({ name: 'max_per_day', type: 'smallint', unsigned: true, nullable: true })
  maxPerDay!: number | null;

  /** At most this many a week (ISO: Monday to Sunday) of the calendar's zone; null: no limit. */
  @Column({ name: 'max_per_week', type: 'smallint', unsigned: true, nullable: true })
  maxPerWeek!: number | null;

  /** What its clients may book as a series (docs/series.md); null: none. */
  @Column({ type: 'json', nullable: true })
  recurrence!: RecurrenceSettings | null;

  /** Whether the type lists resources (its links say which): availability reads their use then. */
  @Column({ name: 'uses_resources', type: 'boolean', default: false })
  usesResources!: boolean;

  /** Its live resources and who else uses them (null: none), kept with the links. */
  @Column({ name: 'resource_links', type: 'json', nullable: true })
  resourceLinks!: ResourceLinks | null;

  /** How a booking that names no calendar picks one (team-assignment.ts). */
  @Column({ type: 'varchar', length: 16, default: 'first' })
  assignment!: Assignment;

  /** Each calendar's weight in `round-robin` and `balanced` (null: all 1). */
  @Column({ name: 'assignment_weights', type: 'json', nullable: true })
  assignmentWeights!: AssignmentWeights | null;

  /** Every calendar of the type takes each appointment together (services only). */
  @Column({ type: 'boolean', default: false })
  collective!: boolean;
}

/**
 * What a booking of a type that needs resources locks and reads (docs/resources.md), written with
 * every change of the links, of a resource's life or of a type's kind (markUsesResources).
 */
export interface ResourceLinks {
  /**
   * Each live resource the type needs (ascending id): its name and quantity, and every type
   * listing it, itself included.
   */
  resources: { id: number; name: string; quantity: number; types: number[] }[];
  /** The class types among all those types (their sessions use the resources); null: none. */
  classTypes: number[] | null;
}
