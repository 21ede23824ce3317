/**
 * `promise`, or a rejection with `Error(message)` once `ms` have passed without its settling. The
 * timer is cleared either way (no timer outlives the wait). The promise itself is not cancelled: a
 * Redis command that times out here may still run; callers treat the timeout as "unknown outcome".
 */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
