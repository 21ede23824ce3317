import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { CreateEnterpriseCommand } from '../../src/modules/accounts/enterprise.commands';
import type { ApiClient, ApiResponse } from './api-client';
import { type TestAccount, basicAuth, createAccount } from './test-app';

export interface TestEnterprise {
  id: number;
  apiKey: string;
  authorization: string;
}

/** A fresh enterprise, created as the operator CLI does. */
export async function createEnterprise(
  app: { get: NestFastifyApplication['get'] },
  name = 'Test Group',
): Promise<TestEnterprise> {
  const { id, apiKey } = await app.get(CommandBus).execute(new CreateEnterpriseCommand(name));
  return { id, apiKey, authorization: basicAuth(id, apiKey) };
}

/** A fresh account, member of `enterprise`. */
export function createMember(
  app: { get: NestFastifyApplication['get'] },
  enterprise: TestEnterprise,
): Promise<TestAccount> {
  return createAccount(app, { enterpriseId: enterprise.id });
}

/** Requests to any path (a full one: `/api/...`) with the given `Authorization` header. */
export async function send(
  app: NestFastifyApplication,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  authorization: string | undefined,
  body?: unknown,
): Promise<ApiResponse> {
  const res = await app.inject({
    method,
    url,
    headers: {
      ...(authorization === undefined ? {} : { authorization }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.statusCode,
    body: res.body === '' ? undefined : res.json(),
    headers: res.headers,
  };
}

/**
 * An ApiClient whose paths (`/me`, `/appointments`…) go through the enterprise API to the member
 * `userId`: `/api/enterprise/v1/users/{userId}<path>` with the enterprise's credentials.
 */
export function memberClient(
  app: NestFastifyApplication,
  enterprise: TestEnterprise,
  userId: number,
): ApiClient {
  const url = (path: string) => `/api/enterprise/v1/users/${userId}${path}`;
  return {
    get: (path) => send(app, 'GET', url(path), enterprise.authorization),
    post: (path, body) => send(app, 'POST', url(path), enterprise.authorization, body),
    put: (path, body) => send(app, 'PUT', url(path), enterprise.authorization, body),
    delete: (path) => send(app, 'DELETE', url(path), enterprise.authorization),
  };
}
