import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { Catalog1763900000000 } from './1763900000000-catalog';
import { Availability1764000000000 } from './1764000000000-availability';
import { Certificates1764100000000 } from './1764100000000-certificates';
import { Booking1764200000000 } from './1764200000000-booking';
import { IdempotencyKeys1764300000000 } from './1764300000000-idempotency-keys';
import { Webhooks1764400000000 } from './1764400000000-webhooks';
import { WebhookMessages1764500000000 } from './1764500000000-webhook-messages';
import { CoveringBusyIndex1764600000000 } from './1764600000000-covering-busy-index';
import { OAuth1764700000000 } from './1764700000000-oauth';
import { Notifications1764800000000 } from './1764800000000-notifications';
import { OutboxBatchJobs1764900000000 } from './1764900000000-outbox-batch-jobs';
import { Clients1765000000000 } from './1765000000000-clients';
import { Payments1765100000000 } from './1765100000000-payments';
import { AppointmentsByClient1765110000000 } from './1765110000000-appointments-by-client';
import { SlotHolds1765200000000 } from './1765200000000-slot-holds';
import { Enterprises1765300000000 } from './1765300000000-enterprises';
import { CalendarSync1765400000000 } from './1765400000000-calendar-sync';
import { ClientPages1765500000000 } from './1765500000000-client-pages';
import { CalendarBusyKinds1765600000000 } from './1765600000000-calendar-busy-kinds';
import { PageHolds1765700000000 } from './1765700000000-page-holds';
import { AppointmentSeries1765800000000 } from './1765800000000-appointment-series';
import { Resources1765900000000 } from './1765900000000-resources';
import { ResourceLinks1766000000000 } from './1766000000000-resource-links';
import { TeamScheduling1766100000000 } from './1766100000000-team-scheduling';
import { WrittenLocks1766200000000 } from './1766200000000-written-locks';
import { LanguagesAndPageLook1766300000000 } from './1766300000000-languages-and-page-look';

/**
 * Every migration, in order. Listed explicitly (not globbed) so that the compiled service, ts-jest and
 * the TypeORM CLI all run the same set; a unit test checks that no file of this folder is missing.
 */
export const migrations = [
  InitialSchema1763800000000,
  Catalog1763900000000,
  Availability1764000000000,
  Certificates1764100000000,
  Booking1764200000000,
  IdempotencyKeys1764300000000,
  Webhooks1764400000000,
  WebhookMessages1764500000000,
  CoveringBusyIndex1764600000000,
  OAuth1764700000000,
  Notifications1764800000000,
  OutboxBatchJobs1764900000000,
  Clients1765000000000,
  Payments1765100000000,
  AppointmentsByClient1765110000000,
  SlotHolds1765200000000,
  Enterprises1765300000000,
  CalendarSync1765400000000,
  ClientPages1765500000000,
  CalendarBusyKinds1765600000000,
  PageHolds1765700000000,
  AppointmentSeries1765800000000,
  Resources1765900000000,
  ResourceLinks1766000000000,
  TeamScheduling1766100000000,
  WrittenLocks1766200000000,
  LanguagesAndPageLook1766300000000,
];
