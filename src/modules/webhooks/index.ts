/*
 * What other modules use of webhooks (the app's API and worker modules, the worker's map of
 * domain-event consumers); they import it from here, not from the module's files.
 */
export { WebhookFanOut } from './webhook-fan-out';
export { WebhooksWorkerModule } from './webhooks-worker.module';
export { WebhooksModule } from './webhooks.module';
export { WEBHOOKS } from './webhooks.openapi';
