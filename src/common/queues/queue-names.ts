/** Every Bull queue of the service. The API only produces; the worker consumes. */
export enum QueueName {
  /**
   * Domain events relayed from the outbox: the events of the rows handed over together in one job
   * (jobId: the first row id and a digest of all; each row records it in `job_id`).
   */
  DomainEvents = 'domain-events',
  /**
   * Worker only: one job per webhook message (jobId `wh:<messageId>`, or `wh:<messageId>:…` when
   * the sweeper revives a message whose job was lost or a delivery is put off for fairness), retried
   * on the contract's ladder.
   */
  WebhookDeliveries = 'webhook-deliveries',
  /**
   * Worker only: one job per client e-mail or SMS (jobId `n:<notificationId>`); a reminder's job is
   * delayed until its time. Retried with exponential backoff.
   */
  Notifications = 'notifications',
}
