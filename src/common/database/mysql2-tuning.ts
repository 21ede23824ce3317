/**
 * Two per-query costs of mysql2 under TypeORM, removed. TypeORM runs every query as
 * `connection.promise().query(…)`; mysql2's `promise()` requires its promise module and builds a
 * wrapper (an EventEmitter forwarding the connection's events) each time, and mysql2 captures a
 * stack trace per query when `trace` is on (its default). Together they were ~8% of a booking's CPU.
 *
 * - `trace: false` is set in dataSourceOptions (TypeORM wraps failures in QueryFailedError, whose
 *   stack shows the caller anyway).
 * - `promise()` is memoised here per pooled connection: the wrapper holds no per-query state.
 */
import { dirname, join } from 'node:path';

interface PromiseCapable {
  promise: (this: PromiseCapable, promiseImpl?: PromiseConstructor) => unknown;
}

const WRAPPER = Symbol('promise wrapper');
let applied = false;

export function memoisePromiseWrappers(): void {
  if (applied) return;
  applied = true;
  // By absolute path: mysql2's package exports do not list its lib/ files.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const PoolConnection = require(
    join(dirname(require.resolve('mysql2')), 'lib', 'pool_connection.js'),
  ) as { prototype: PromiseCapable };
  const original = PoolConnection.prototype.promise;
  PoolConnection.prototype.promise = function promise(
    this: PromiseCapable & { [WRAPPER]?: unknown },
    promiseImpl?: PromiseConstructor,
  ): unknown {
    if (promiseImpl !== undefined) return original.call(this, promiseImpl);
    return (this[WRAPPER] ??= original.call(this));
  };
}
