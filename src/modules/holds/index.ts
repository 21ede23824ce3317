/*
 * What the app uses of holds: the API's module and the worker's, and the command the scheduling
 * page holds a chosen time with. Holds themselves (the entity, the
 * token, the busy check) live in availability, which booking reads.
 */
export { HoldsModule } from './holds.module';
export { HoldsWorkerModule } from './holds-worker.module';
export { CreateSlotHoldCommand } from './slot-hold.commands';
export { DayHoldShareError, NetworkHoldLimitError } from './holds.errors';
