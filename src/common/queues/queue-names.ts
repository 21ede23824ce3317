/** Every Bull queue of the service. The API only produces; the worker consumes. */
export enum QueueName {
  /** Domain events relayed from the outbox, one job per outbox row (jobId = row id). */
  DomainEvents = 'domain-events',
}
