import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context';
import type { FastifyRequest } from 'fastify';

/**
 * Nest's kinds of parameter (its "paramtype": one per custom decorator) whose values no pipe sees.
 * Filled by requestParam(); read by the one tuning of Nest below.
 */
const unpiped = new Set<string>();
let tuned = false;

/**
 * A parameter decorator for a value the server itself put on the request before the handler runs
 * (the auth guard's principal, account id, enterprise), read from the request (argument 0 of the
 * HTTP context: switchToHttp() would assign three new closures onto the context on each call).
 *
 * Its value goes to the handler without passing through pipes. Nest would run every global pipe on
 * it: ApiValidationPipe, which hands a custom decorator's value back untouched (no
 * `validateCustomDecorators`), through a chain of five async calls per parameter per request, ~2% of
 * an authenticated GET in bench:http. The decorator takes no arguments, so no pipe of its own can be
 * given to it; a global pipe added later will not see these values either, which is the point:
 * they are no client input.
 */
export function requestParam<T>(read: (request: FastifyRequest) => T): () => ParameterDecorator {
  const decorator = createParamDecorator((_: unknown, ctx: ExecutionContext): T =>
    read(ctx.getArgByIndex<FastifyRequest>(0)),
  );
  unpiped.add(paramtypeOf(decorator()));
  skipPipesOfUnpiped();
  return () => decorator();
}

/** The paramtype Nest gives this decorator's parameters (the key it stores them under, before `:`). */
function paramtypeOf(decorator: ParameterDecorator): string {
  class Probe {
    handler(): void {}
  }
  decorator(Probe.prototype, 'handler', 0);
  const metadata = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handler') as object;
  return Object.keys(metadata)[0].split(':')[0];
}

/**
 * Nest asks isPipeable(paramtype) for each parameter of each request; for the paramtypes above it
 * now answers no (Nest then hands the value on as it is).
 */
function skipPipesOfUnpiped(): void {
  if (tuned) return;
  tuned = true;
  const prototype = RouterExecutionContext.prototype;
  const isPipeable = prototype.isPipeable.bind(prototype);
  // isPipeable reads nothing of its instance (a test of the paramtype alone), so the original is
  // called bound to the prototype.
  prototype.isPipeable = (type: number | string): boolean =>
    !(typeof type === 'string' && unpiped.has(type)) && isPipeable(type);
}
