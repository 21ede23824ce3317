import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpDurationSeries, HttpDurations } from './http-durations';
import { type Metrics, UNMATCHED_ROUTE } from './metrics';

type OnResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/**
 * Times every response into `http_request_duration_seconds` by route pattern and status, in
 * `onResponse`. Each route gets its own hook (call this before routes are registered) keeping its
 * series by method and status: no key to build, no `request.routeOptions` (built on every read).
 * Requests that matched no route are observed by one global hook under UNMATCHED_ROUTE.
 */
export function registerHttpMetrics(fastify: FastifyInstance, metrics: Metrics): void {
  const durations = metrics.httpDuration;
  fastify.addHook('onRoute', (route) => {
    const own = route.onResponse ?? [];
    route.onResponse = [...(Array.isArray(own) ? own : [own]), observer(durations)];
  });
  const unmatched = observer(durations);
  fastify.addHook('onResponse', (request, reply, done) => {
    if (request.is404) unmatched(request, reply, done);
    else done();
  });
}

/** A hook observing into the series it has met, by method, then status. */
function observer(durations: HttpDurations): OnResponse {
  const byMethod = new Map<string, Map<number, HttpDurationSeries>>();
  return (request, reply, done) => {
    const status = reply.statusCode;
    let byStatus = byMethod.get(request.method);
    if (byStatus === undefined) {
      byStatus = new Map<number, HttpDurationSeries>();
      byMethod.set(request.method, byStatus);
    }
    let series = byStatus.get(status);
    if (series === undefined) {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      series = durations.seriesOf(request.method, route, String(status));
      byStatus.set(status, series);
    }
    durations.observe(series, reply.elapsedTime / 1000);
    done();
  };
}
