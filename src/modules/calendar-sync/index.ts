/*
 * What the rest of src/ uses of calendar sync: the API's module and the worker's (the app modules),
 * and the sync itself (its tests and the benchmark drive it directly).
 */
export { BusySourceSync } from './busy-source-sync';
export { CalendarSyncModule } from './calendar-sync.module';
export { CalendarSyncWorkerModule } from './calendar-sync-worker.module';
