/* What the rest of src/ uses of calendar sync: the API's module and the worker's. */
export { CalendarSyncModule } from './calendar-sync.module';
export { CalendarSyncWorkerModule } from './calendar-sync-worker.module';
