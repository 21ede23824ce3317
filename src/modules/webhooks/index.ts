/* What the app's modules use of webhooks; they import it from here, not from its files. */
export { WebhookFanOut } from './webhook-fan-out';
export { WebhooksWorkerModule } from './webhooks-worker.module';
export { WebhooksModule } from './webhooks.module';
export { WEBHOOKS } from './webhooks.openapi';
