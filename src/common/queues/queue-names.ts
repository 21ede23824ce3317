/** Every Bull queue of the service. The API only produces; the worker consumes. */
export enum QueueName {
  /** Domain events relayed from the outbox, several rows' to a job (see batchJobId). */
  DomainEvents = 'domain-events',
  /** Worker only: a job per webhook message (jobId `wh:<messageId>`, or `wh:<messageId>:…`). */
  WebhookDeliveries = 'webhook-deliveries',
  /** Worker only: a job per client e-mail or SMS (jobId `n:<notificationId>`). */
  Notifications = 'notifications',
}
