import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** The reason phrases the envelope's responses are described with, by status. */
export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
};

/** The error envelope every refusal of the API is written in, with the codes one response may carry. */
export function errorEnvelopeSchema(
  status: number,
  codes: readonly string[],
  details: Record<string, object> = {},
) {
  return {
    type: 'object' as const,
    required: ['status_code', 'message', 'error'],
    properties: {
      status_code: { type: 'integer' as const, enum: [status], example: status },
      message: { type: 'string' as const, description: 'What went wrong, for a person.' },
      error: { type: 'string' as const, enum: [...codes], example: codes[0] },
      ...details,
    },
  };
}

/**
 * Documents an operation's refusals, one response per status with its `error` codes:
 * `@ApiErrors({ 400: ['invalid_email'], 404: ['not_found'] })`. 429 `too_many_requests` and (unless
 * `authenticated: false`) 401 `unauthorized` are added: every v1 operation may answer them.
 */
export function ApiErrors(
  codesByStatus: Record<number, readonly string[]>,
  options: {
    authenticated?: boolean;
    /** More of the envelope some refusals carry (DomainError.details), by status. */
    details?: Record<number, Record<string, object>>;
  } = {},
): MethodDecorator & ClassDecorator {
  const all: Record<number, readonly string[]> = { 429: ['too_many_requests'], ...codesByStatus };
  if (options.authenticated !== false) all[401] ??= ['unauthorized'];
  return applyDecorators(
    ...Object.entries(all).map(([status, codes]) =>
      ApiResponse({
        status: Number(status),
        description: `${STATUS_TEXT[Number(status)] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
        schema: errorEnvelopeSchema(Number(status), codes, options.details?.[Number(status)]),
      }),
    ),
  );
}
