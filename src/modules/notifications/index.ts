/*
 * What other modules use of notifications (the app's API and worker modules, the worker's map of
 * domain-event consumers); they import it from here, not from the module's files.
 */
export { NotificationPlanner } from './notification-planner';
export { NotificationsWorkerModule } from './notifications-worker.module';
export { NotificationsModule } from './notifications.module';
