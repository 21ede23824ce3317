import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpDurationSeries, HttpDurations } from './http-durations';
import { type Metrics, UNMATCHED_ROUTE } from './metrics';

type OnResponse = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/**
 * Times every HTTP response into `http_request_duration_seconds`, labelled by the route's pattern
 * (`/api/v1/appointments/:id`, never the raw URL: one series per route, not per id) and status.
 * Runs in `onResponse`, after the response has gone: the request does not wait for it.
 *
 * Each route gets a hook of its own (added as the route is registered, so call this before the
 * routes are), which keeps the series it observes into by method and status: no key to build, and
 * no `request.routeOptions`, which Fastify builds anew (a dozen fields) on every read. The route's
 * pattern is still read from the request, once per series. Requests that matched no route (404s,
 * URLs refused before routing) are observed by one global hook under UNMATCHED_ROUTE.
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
