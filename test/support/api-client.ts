import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { TestAccount } from './test-app';

export interface ApiResponse {
  status: number;
  // The parsed JSON body: tests compare it whole with toEqual.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface ApiClient {
  get(path: string): Promise<ApiResponse>;
  post(path: string, body?: unknown): Promise<ApiResponse>;
  put(path: string, body?: unknown): Promise<ApiResponse>;
  delete(path: string): Promise<ApiResponse>;
}

/** Requests to `/api/v1` as `account`, answered in-process (no socket). */
export function apiClient(app: NestFastifyApplication, account: TestAccount): ApiClient {
  const send = async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<ApiResponse> => {
    const res = await app.inject({
      method,
      url: `/api/v1${path}`,
      headers: {
        authorization: account.authorization,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.statusCode,
      body: res.body === '' ? undefined : res.json(),
      headers: res.headers,
    };
  };
  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body),
    put: (path, body) => send('PUT', path, body),
    delete: (path) => send('DELETE', path),
  };
}

/** The contract's error envelope. */
export function apiError(status: number, error: string, message: string) {
  return { status, body: { status_code: status, error, message } };
}
