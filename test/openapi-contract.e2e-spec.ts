import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocumentOf } from '../src/app/openapi-document';
import { apiClient } from './support/api-client';
import {
  type OpenApiDocument,
  checkResponse,
  documentPath,
  operationPath,
  operationsNeverAnswered,
  takeContractViolations,
} from './support/openapi-contract';
import { createAccount, startApi } from './support/test-app';

/*
 * The contract test's own checks (test/support/openapi-contract.ts): what it must refuse, on the
 * document the API serves. Without them a checker that accepts everything would pass every suite.
 */

describe('The contract test: responses checked against the OpenAPI document (e2e)', () => {
  let app: NestFastifyApplication;
  let document: OpenApiDocument;
  /** Validators compiled the way the hook compiles them. */
  let check: (answer: Parameters<typeof checkResponse>[2]) => string[];

  beforeAll(async () => {
    app = await startApi();
    document = openApiDocumentOf(app) as unknown as OpenApiDocument;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: 'openapi' });
    const schemas = { validator: (pointer: string) => ajv.compile({ $ref: `openapi#${pointer}` }) };
    check = (answer) => checkResponse(document, schemas, answer);
  });

  afterAll(() => app.close());

  const label = { id: 2, name: 'VIP', color: 'purple' };
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const answer = (status: number, body: unknown, headers: Record<string, unknown> = json) => ({
    method: 'GET',
    path: '/api/v1/labels/{id}',
    status,
    headers,
    body: JSON.stringify(body),
  });
  const envelope = (status: number, error: string) => ({
    status_code: status,
    error,
    message: 'x',
  });

  it('accepts an answer the document describes', () => {
    expect(check(answer(200, label))).toEqual([]);
    expect(check(answer(404, envelope(404, 'not_found')))).toEqual([]);
  });

  it('refuses a status the operation does not document', () => {
    expect(check(answer(409, envelope(409, 'conflict')))).toEqual([
      'GET /api/v1/labels/{id} 409: the status is not documented',
    ]);
  });

  it('refuses a field the schema does not name, and a wrong type', () => {
    expect(check(answer(200, { ...label, secret: 'x' }))).toEqual([
      expect.stringContaining('must NOT have additional properties'),
    ]);
    expect(check(answer(200, { ...label, id: '2' }))).toEqual([
      expect.stringContaining('/id must be integer'),
    ]);
  });

  it('refuses an error code the operation does not list', () => {
    expect(check(answer(404, envelope(404, 'gone')))).toEqual([
      expect.stringContaining('/error must be equal to one of the allowed values'),
    ]);
  });

  it("accepts the body parser's refusal naming any attribute, and only that", () => {
    const put = (error: string, message: string) => ({
      ...answer(400, { status_code: 400, error, message }),
      method: 'PUT',
    });
    expect(check(put('invalid_account_id', 'Invalid "account_id" attribute value.'))).toEqual([]);
    expect(check(put('invalid_x', 'Attribute "x.0" is longer than 16000 characters.'))).toEqual([]);
    expect(check(put('invalid_account_id', 'Something else.'))).toEqual([
      expect.stringContaining('/error must be equal to one of the allowed values'),
    ]);
  });

  it('refuses a 429 without Retry-After, and an undocumented content type', () => {
    expect(check(answer(429, envelope(429, 'too_many_requests')))).toEqual([
      'GET /api/v1/labels/{id} 429: no Retry-After header',
    ]);
    expect(check(answer(200, label, { 'content-type': 'text/plain' }))).toEqual([
      'GET /api/v1/labels/{id} 200: content type "text/plain" is not documented',
    ]);
  });

  it('checks the responses the app gives in a test, and names the operation', async () => {
    const api = apiClient(app, await createAccount(app));
    const res = await api.get('/labels/2147483647');
    expect(res.status).toBe(404);
    expect(takeContractViolations()).toEqual([]);
    expect(documentPath('/api/v1/labels/:id(^\\d+$)')).toBe('/api/v1/labels/{id}');
    expect(operationPath('/api/v1/labels/{id}', '/api/enterprise/v1/users/7/labels/3')).toBe(
      '/api/enterprise/v1/users/{userId}/labels/{id}',
    );
  });

  it('names the operations a run never answered', () => {
    const directory = mkdtempSync(join(tmpdir(), 'openapi-coverage-'));
    try {
      writeFileSync(join(directory, 'operations.list'), 'get /a\npost /a\nget /b\n');
      writeFileSync(join(directory, 'worker-1.txt'), 'get /a 200\nget /b 404\n');
      expect(operationsNeverAnswered(directory)).toEqual(['post /a']);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
