/* What other modules use of notifications (the app modules, the worker's map of consumers). */
export { NotificationPlanner } from './notification-planner';
export { NotificationsWorkerModule } from './notifications-worker.module';
export { NotificationsModule } from './notifications.module';
