import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const OPERATOR_CHALLENGE = 'Basic realm="operators", charset="UTF-8"';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an `Authorization` header carries the operator's Basic credentials, compared together and
 * hashed first, so that the comparison is constant-time whatever the lengths.
 */
export function isOperator(
  authorization: string | undefined,
  operator: { user: string; password: string },
): boolean {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(authorization?.trim() ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1], 'base64').toString('utf8');
  return timingSafeEqual(digest(given), digest(`${operator.user}:${operator.password}`));
}

/** A Fastify onRequest hook: 401 with the Basic challenge unless the operator's credentials come. */
export function operatorAuthHook(operator: { user: string; password: string }) {
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    if (isOperator(request.headers.authorization, operator)) return done();
    void reply
      .code(401)
      .header('www-authenticate', OPERATOR_CHALLENGE)
      .header('cache-control', 'no-store')
      .send({ status_code: 401, message: 'Unauthorized', error: 'unauthorized' });
  };
}
