import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Histogram } from 'prom-client';
import { type Metrics, UNMATCHED_ROUTE } from './metrics';

type Observer = ReturnType<Histogram<'method' | 'route' | 'status_code'>['labels']>;

/**
 * Times every HTTP response into `http_request_duration_seconds`, labelled by the route's pattern
 * (`/api/v1/appointments/:id`, never the raw URL: one series per route, not per id) and status.
 * Runs in `onResponse`, after the response has gone: the request does not wait for it. Its cost is
 * a Map lookup and one histogram observation (the labelled child is made once per route, method and
 * status, and kept).
 */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  const observers = new Map<string, Observer>();
  const observerOf = (method: string, route: string, status: number): Observer => {
    const key = `${method} ${status} ${route}`;
    let observer = observers.get(key);
    if (observer === undefined) {
      observer = metrics.httpDuration.labels(method, route, String(status));
      observers.set(key, observer);
    }
    return observer;
  };
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    observerOf(request.method, route, reply.statusCode).observe(reply.elapsedTime / 1000);
    done();
  });
}
