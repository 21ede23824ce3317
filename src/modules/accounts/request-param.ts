import { type ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouterExecutionContext } from '@nestjs/core/router/router-execution-context';
import type { FastifyRequest } from 'fastify';

/** Nest's paramtypes (one per custom decorator) whose values no pipe sees (see requestParam). */
const unpiped = new Set<string>();
let tuned = false;

/**
 * A parameter decorator for a value the server put on the request (the guard's principal, account
 * id, enterprise), read from argument 0 (switchToHttp() assigns three closures per call).
 *
 * No pipe sees it: ApiValidationPipe hands it back untouched, through five async calls per
 * parameter (~2% of an authenticated GET in bench:http), and no pipe added later should see it
 * either: it is no client input.
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

/** Nest asks isPipeable(paramtype) of each parameter per request: no, for those above. */
function skipPipesOfUnpiped(): void {
  if (tuned) return;
  tuned = true;
  const prototype = RouterExecutionContext.prototype;
  const isPipeable = prototype.isPipeable.bind(prototype);
  // isPipeable reads nothing of its instance: the original may run bound to the prototype.
  prototype.isPipeable = (type: number | string): boolean =>
    !(typeof type === 'string' && unpiped.has(type)) && isPipeable(type);
}
