import { appendFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { ENTERPRISE_PREFIX } from '../../src/common/http/enterprise-routing';
import { snake } from '../../src/common/http/http.errors';
import { API_PREFIX } from '../../src/common/http/request-parsing';

/*
 * The contract test (issue 28): every response the in-process API gives an e2e or integration test
 * is checked against the OpenAPI document's description of that operation and status: an
 * undocumented status, a field the schema does not name, a wrong type or an `error` code the
 * operation does not list is a violation, and the test during which it happened fails
 * (contract-check.ts, after each test). The operations answered are recorded per run, and a whole
 * run fails if one of the document's operations was never exercised (global-teardown.ts).
 */

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  paths: Record<string, Record<string, Json>>;
}

const violations: string[] = [];

/** The violations since the last call, emptied. */
export function takeContractViolations(): string[] {
  return violations.splice(0);
}

/** Where this run's workers record the operations answered. */
export function coverageDirectory(): string {
  return join(tmpdir(), `scheduling-openapi-${process.env.SCHEDULING_TEST_RUN ?? process.pid}`);
}

/** `/api/v1/labels/:id(^\d+$)` → `/api/v1/labels/{id}`. */
export function documentPath(routeUrl: string): string {
  return routeUrl.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');
}

const MEMBER_PREFIX = `${ENTERPRISE_PREFIX}/users/`;

/**
 * A v1 route reached through the enterprise API (`/api/enterprise/v1/users/{userId}/…`, rewritten
 * to `/api/v1/…` before routing) is its member copy in the document.
 */
export function operationPath(path: string, originalUrl: string): string {
  return originalUrl.startsWith(MEMBER_PREFIX) && path.startsWith(`${API_PREFIX}/`)
    ? `${MEMBER_PREFIX}{userId}${path.slice(API_PREFIX.length)}`
    : path;
}

/** The schema of a response, compiled against the whole document (for its `$ref`s). */
class ResponseSchemas {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: 'openapi' });
  }

  validator(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The body parser's refusal of a string that is not Unicode text or is too long, made before
 * routing and named after its attribute, whatever the attribute (one the operation never reads
 * too: `invalid_<name>`). The document says so on every 400 of a body (openapi-document.ts); its
 * `error` enum cannot list every name a client may send.
 */
function isParserRefusal(body: unknown): boolean {
  const { error, message } = (body ?? {}) as { error?: unknown; message?: unknown };
  if (typeof error !== 'string' || typeof message !== 'string') return false;
  const named =
    /^Invalid "([^"]+)" attribute value\.$|^Attribute "([^"]+)" is longer than \d+ characters\.$/.exec(
      message,
    );
  if (!named) return false;
  const attribute = (named[1] ?? named[2]).split('.')[0];
  return error === `invalid_${snake(attribute)}`;
}

/** Checks one response; returns what is wrong with it. */
export function checkResponse(
  document: OpenApiDocument,
  schemas: { validator(pointer: string): ValidateFunction },
  answer: { method: string; path: string; status: number; headers: Json; body: string },
): string[] {
  const method = answer.method.toLowerCase();
  const operation = document.paths[answer.path]?.[method];
  const name = `${answer.method} ${answer.path} ${answer.status}`;
  if (!operation) return [];
  const responses = operation.responses as Record<string, Json>;
  const response = responses[String(answer.status)];
  if (!response) return [`${name}: the status is not documented`];
  const content = response.content as Record<string, Json> | undefined;
  const problems: string[] = [];
  const headers = response.headers as Json | undefined;
  for (const header of Object.keys(headers ?? {}))
    if (answer.headers[header.toLowerCase()] === undefined)
      problems.push(`${name}: no ${header} header`);
  if (!content) {
    if (answer.body !== '') problems.push(`${name}: a body, where the document describes none`);
    return problems;
  }
  const header = answer.headers['content-type'];
  const type = (typeof header === 'string' ? header : '').split(';')[0];
  const media = Object.keys(content).find((key) => key === type || key === '*/*');
  if (!media) return [...problems, `${name}: content type "${type}" is not documented`];
  if (media !== 'application/json' || !content[media].schema) return problems;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return [...problems, `${name}: the body is not JSON`];
  }
  const pointer = ['paths', answer.path, method, 'responses', String(answer.status), 'content']
    .map(escape)
    .join('/');
  if (answer.status === 400 && isParserRefusal(body)) return problems;
  const validate = schemas.validator(`/${pointer}/${escape(media)}/schema`);
  if (!validate(body))
    problems.push(
      `${name}: ${(validate.errors ?? [])
        .slice(0, 5)
        .map((e) => `${e.instancePath || 'body'} ${e.message} ${JSON.stringify(e.params)}`)
        .join('; ')}\n  body: ${answer.body.slice(0, 500)}`,
    );
  return problems;
}

/** Checks every response of `fastify` against `document` and records the operations answered. */
export function checkResponsesAgainst(fastify: FastifyInstance, document: OpenApiDocument): void {
  const schemas = new ResponseSchemas(document);
  const directory = coverageDirectory();
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `worker-${process.env.JEST_WORKER_ID ?? '0'}-${process.pid}.txt`);
  writeFileSync(
    join(directory, OPERATIONS_FILE),
    Object.entries(document.paths)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}\n`))
      .join(''),
  );
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined) {
      const path = operationPath(documentPath(route), request.originalUrl);
      const status = reply.statusCode;
      const body =
        typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : '';
      const streamed =
        payload !== null &&
        payload !== undefined &&
        !(typeof payload === 'string') &&
        !Buffer.isBuffer(payload);
      if (document.paths[path]?.[request.method.toLowerCase()]) {
        const found = streamed
          ? []
          : checkResponse(document, schemas, {
              method: request.method,
              path,
              status,
              headers: reply.getHeaders(),
              body,
            });
        violations.push(...found);
        appendFileSync(file, `${request.method.toLowerCase()} ${path} ${status}\n`);
      }
    }
    done(null, payload);
  });
}

/** The list of the document's operations, written beside the workers' records. */
const OPERATIONS_FILE = 'operations.list';

/** The document's operations that no recorded response answered (none recorded: undefined). */
export function operationsNeverAnswered(directory: string): string[] | undefined {
  const lines = (name: string) =>
    readFileSync(join(directory, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ').slice(0, 2).join(' '));
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return undefined;
  }
  if (!names.includes(OPERATIONS_FILE)) return undefined;
  const answered = new Set(names.filter((n) => n !== OPERATIONS_FILE).flatMap(lines));
  return lines(OPERATIONS_FILE).filter((operation) => !answered.has(operation));
}
