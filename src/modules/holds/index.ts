/* What the app uses of holds. The entity, the token and the busy check are availability's. */
export { HoldsModule } from './holds.module';
export { HoldsWorkerModule } from './holds-worker.module';
export { CreateSlotHoldCommand } from './slot-hold.commands';
export { DayHoldShareError, NetworkHoldLimitError } from './holds.errors';
