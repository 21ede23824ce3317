import type { INestApplication } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { IS_PUBLIC } from '../common/http/public.decorator';
import { snake } from '../common/http/http.errors';
import { BODY_LIMIT_BYTES, MAX_STRING_LENGTH, OAUTH_PREFIX } from '../common/http/request-parsing';
import {
  MAX_JSON_DEPTH,
  MAX_JSON_ITEMS,
  MAX_JSON_KEYS,
  MAX_JSON_VALUES,
} from '../common/http/json-shape';
import {
  addErrorCodes,
  closeObjects,
  envelopeCodes,
  envelopeResponse,
  oauthErrorResponse,
  toJsonSchema2020,
} from '../common/openapi/openapi-31';
import { STATUS_TEXT } from '../common/openapi/api-errors';
import { describeValidatedClasses } from '../common/openapi/validated-schemas';
import { viewSchemas } from '../common/openapi/view-schema';
import { ENTERPRISE_PREFIX } from '../common/http/enterprise-routing';
import {
  ENTERPRISE_MEMBERS_TAG,
  addEnterpriseMemberPaths,
} from '../common/openapi/enterprise-paths';
import { ENTERPRISE_SECURITY } from '../modules/accounts';
import { WEBHOOKS } from '../modules/webhooks';

type Json = Record<string, unknown>;

type Class = abstract new (...args: never[]) => unknown;

/** The schemes every authenticated operation accepts. */
export const API_SECURITY = [{ basic: [] }, { bearer: [] }, { oauth2: ['api-v1'] }];

const DESCRIPTION =
  'Appointment scheduling API, version 1. Errors: `{status_code, message, error}`, `error` a ' +
  'stable code from the list each operation gives. Request bodies: JSON, sent as ' +
  '`application/json` or `application/*+json` (415 `unsupported_media_type` otherwise), ' +
  `of at most ${BODY_LIMIT_BYTES} bytes (413 \`payload_too_large\`), ` +
  `${MAX_JSON_DEPTH} levels deep, ${MAX_JSON_KEYS} keys an object, ${MAX_JSON_ITEMS} items ` +
  `an array and ${MAX_JSON_VALUES} values in all (400 \`bad_request\` naming the bound). ` +
  'Datetimes read `YYYY-MM-DDThh:mm:ss+hhmm`, dates `YYYY-MM-DD`; money is a string with two ' +
  'decimals. Every path may end in `.json`. Over a rate limit: 429 with `Retry-After`.\n\n' +
  'Try it out: the demo account (`npm run cli -- demo:seed`, see docs/operations.md) signs in ' +
  'with Basic; its examples book on its calendar as they are.';

/** What one route of a controller is, as the document builder needs it. */
interface RouteFacts {
  public: boolean;
  /** Its DTOs name other resources (`calendarID`, `addonIDs`): they may be another account's. */
  references: boolean;
  /** The DTO classes its body and query string are validated as. */
  dtos: Class[];
}

/** The routes of the app's controllers by operationId (`Controller_method`, swagger's default). */
function routeFacts(app: INestApplication): Map<string, RouteFacts> {
  const facts = new Map<string, RouteFacts>();
  for (const module of app.get(ModulesContainer).values())
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const classPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function') continue;
        if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
        const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) as
          Record<string, { index: number }> | undefined;
        const types = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as Class[];
        const dtos = Object.entries(args ?? {})
          .filter(([key]) => {
            const type = Number(key.split(':')[0]) as RouteParamtypes;
            return type === RouteParamtypes.BODY || type === RouteParamtypes.QUERY;
          })
          .map(([, arg]) => types[arg.index])
          .filter((type) => type && validationsOf(type).length > 0);
        facts.set(`${controller.name}_${name}`, {
          public: classPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true,
          references: dtos.some((dto) =>
            validationsOf(dto).some((meta) => /I[Dd]s?$/.test(meta.propertyName)),
          ),
          dtos,
        });
      }
    }
  return facts;
}

function validationsOf(type: Class): ValidationMetadata[] {
  return getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
}

/**
 * The 400 codes the validation pipe gives for a DTO (api-validation.pipe.ts): the code a
 * constraint's context names, else `invalid_<attribute>`, and `required_<attribute>` for one that
 * must be given.
 */
export function validationCodes(dto: Class): string[] {
  const codes = new Set<string>();
  const metas = validationsOf(dto);
  for (const meta of metas) {
    const attribute = snake(meta.propertyName);
    codes.add(`invalid_${attribute}`);
    // `@Allow()` only keeps the attribute: its use case checks it (`invalid_<attribute>`), and
    // whether it is required is the use case's to say (listed by its ApiErrors).
    if (meta.type === 'whitelistValidation') continue;
    const context = meta.context as { code?: string } | undefined;
    if (context?.code) codes.add(context.code);
    const optional = metas.some(
      (m) => m.propertyName === meta.propertyName && m.type === 'conditionalValidation',
    );
    if (!optional || meta.type === 'isDefined') codes.add(`required_${attribute}`);
  }
  return [...codes];
}

/** Every operation of the document, with its path and method. */
function operationsOf(document: OpenAPIObject) {
  return Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(
    ([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
  );
}

/** The schemas a response reaches (through `$ref`s): those that are closed to extra fields. */
function responseSchemaNames(document: OpenAPIObject): Set<string> {
  const names = new Set<string>();
  const schemas = (document.components?.schemas ?? {}) as Json;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!names.has(name)) {
        names.add(name);
        visit(schemas[name]);
      }
    }
    Object.values(node).forEach(visit);
  };
  for (const { operation } of operationsOf(document)) visit(operation.responses);
  return names;
}

/**
 * What every operation may answer, and what every JSON body may get refused for. An operation on a
 * resource named in its path may find it another account's (403) or nowhere (404).
 */
function completeOperation(
  path: string,
  method: string,
  operation: Json,
  facts: RouteFacts | undefined,
): void {
  const responses = operation.responses as Record<string, Json>;
  // Refusals are JSON whatever the operation produces (a `text/calendar` feed, for one).
  for (const [status, response] of Object.entries(responses)) {
    const media = response.content as Record<string, Json> | undefined;
    if (Number(status) >= 400 && media && !media['application/json'] && !media['text/html'])
      response.content = { 'application/json': Object.values(media)[0] };
  }
  const isPublic = facts?.public ?? false;
  if (!isPublic && (path.includes('{') || facts?.references))
    addErrorCodes(responses, 403, ['forbidden'], "Forbidden: another account's resource.");
  if (path.includes('{') && !isPublic)
    addErrorCodes(responses, 404, ['not_found'], 'Not Found: nothing there.');
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const schema = parameter.schema as Json | undefined;
    if (
      parameter.in === 'path' &&
      /^(id|\w+Id)$/.test(parameter.name as string) &&
      schema?.type !== 'integer'
    )
      parameter.schema = { type: 'integer', minimum: 1, maximum: 2147483647 };
  }
  for (const response of Object.values(responses)) response.description ||= 'OK';
  if (!isPublic) {
    // The enterprise API's own endpoints say their scheme (`@EnterpriseApi()`).
    if (!path.startsWith(ENTERPRISE_PREFIX)) operation.security = API_SECURITY;
    addErrorCodes(responses, 401, ['unauthorized'], 'Unauthorized: no credentials, or wrong ones.');
  } else if (operation.security === undefined) operation.security = [];
  const content = (operation.requestBody as Json | undefined)?.content as Json | undefined;
  // Any request but a GET may carry a body, which is parsed (and may be refused) before routing.
  const hasJsonBody = !!content?.['application/json'] || (!content && method !== 'get');
  if (content?.['application/x-www-form-urlencoded'])
    responses[413] = oauthErrorResponse(['invalid_request'], 'Payload Too Large.');
  const codes = (facts?.dtos ?? []).flatMap(validationCodes);
  if (hasJsonBody) codes.unshift('bad_request');
  addErrorCodes(
    responses,
    400,
    codes,
    hasJsonBody
      ? `${STATUS_TEXT[400]}: the codes below; and \`invalid_<attribute>\` for a string of the ` +
          `body, in any attribute, that is not Unicode text or is longer than ${MAX_STRING_LENGTH} ` +
          'characters (refused as the body is read, before the operation).'
      : `${STATUS_TEXT[400]}: the codes below.`,
  );
  if (hasJsonBody) {
    addErrorCodes(responses, 413, ['payload_too_large'], STATUS_TEXT[413]);
    addErrorCodes(responses, 415, ['unsupported_media_type'], STATUS_TEXT[415]);
  }
  // An operation's own 429 codes (a cap it keeps: `too_many_holds`) join the rate limit's.
  const limits = [...new Set(['too_many_requests', ...(envelopeCodes(responses[429]) ?? [])])];
  const limited = path.startsWith(OAUTH_PREFIX)
    ? oauthErrorResponse(['too_many_requests'], 'Over a rate limit: try again later.')
    : envelopeResponse(
        429,
        limits,
        `Over a ${limits[1] ? 'limit' : 'rate limit'}: try again later.`,
      );
  responses[429] = {
    ...limited,
    headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
  };
  for (const [status, response] of Object.entries(responses))
    if (Number(status) >= 400) response.description ||= STATUS_TEXT[Number(status)] ?? 'Error';
}

const built = new WeakMap<INestApplication, OpenAPIObject>();

/** The document `app` serves (once configureApi has built it). */
export function openApiDocumentOf(app: INestApplication): OpenAPIObject | undefined {
  return built.get(app);
}

/**
 * An attribute a request DTO reads as any JSON value (`@Allow()` on `unknown`: the handler gives
 * its own codes) reaches swagger as `type: object`; it is any type.
 */
function anyTypeForUntyped(schema: Json): void {
  for (const property of Object.values((schema.properties ?? {}) as Record<string, Json>))
    if (
      property.type === 'object' &&
      !property.properties &&
      property.additionalProperties === undefined &&
      (property.example === undefined || typeof property.example !== 'object')
    )
      delete property.type;
}

/** The document as GET /api/v1/openapi.json serves it: built from the app's controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  describeValidatedClasses();
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('v1')
      .setVersion('1.1')
      .setDescription(DESCRIPTION)
      .addServer('/', 'This service (the API at /api/v1, OAuth at /oauth2)')
      .addBasicAuth(basicAuth('User ID and API key.'), 'basic')
      .addBearerAuth(
        {
          type: 'http',
          scheme: 'bearer',
          // Opaque tokens, not JWTs (addBearerAuth's default).
          bearerFormat: undefined,
          description: 'An access token of a partner app (POST /oauth2/token), as it is sent.',
        },
        'bearer',
      )
      .addBasicAuth(
        basicAuth("A partner app's client id and secret (POST /oauth2/token, /disconnect)."),
        'oauthClient',
      )
      .addBasicAuth(
        basicAuth(
          'The enterprise API: enterprise id and its API key. Every `/api/v1` route is served ' +
            'under `/api/enterprise/v1/users/{userId}/` for a member account (see the tag `enterprise`).',
        ),
        ENTERPRISE_SECURITY,
      )
      .addTag(
        'enterprise',
        'One credential for many accounts (`/api/enterprise/v1`, Basic auth with the enterprise id ' +
          'and key). Besides `/users` and `/webhooks` below, every `/api/v1/<path>` operation is ' +
          'served as `/api/enterprise/v1/users/{userId}/<path>` for the member account `userId`, with ' +
          "the same parameters, bodies, answers and errors as with the member's own key; a `userId` " +
          'that is not a member is 403 `forbidden` (404 `not_found` when no such account exists). ' +
          "Requests count against the per-IP limits and the enterprise's per-minute limit (429).",
      )
      .addTag(
        ENTERPRISE_MEMBERS_TAG,
        'Every `/api/v1` operation, for a member account of the enterprise: the same parameters, ' +
          "bodies, answers and errors as with the member's own key, plus 403 `forbidden` when " +
          '`userId` is not a member and 404 `not_found` when no such account exists.',
      )
      .addOAuth2(
        {
          type: 'oauth2',
          description:
            'Authorization code flow for partner apps, with PKCE (S256). The access token is then ' +
            'sent as `Authorization: Bearer <token>` and acts on the account that consented.',
          flows: {
            authorizationCode: {
              authorizationUrl: '/oauth2/authorize',
              tokenUrl: '/oauth2/token',
              scopes: { 'api-v1': 'The v1 API, on the account that consented.' },
            },
          },
        },
        'oauth2',
      )
      .build(),
  );
  const finished = finishDocument(document, routeFacts(app));
  built.set(app, finished);
  return finished;
}

function basicAuth(description: string) {
  return { type: 'http', scheme: 'basic', description } as const;
}

function finishDocument(document: OpenAPIObject, facts: Map<string, RouteFacts>): OpenAPIObject {
  const out = document as OpenAPIObject & Json;
  out.openapi = '3.1.0';
  out.jsonSchemaDialect = 'https://spec.openapis.org/oas/3.1/dialect/base';
  for (const { path, method, operation } of operationsOf(document))
    completeOperation(path, method, operation, facts.get(operation.operationId as string));
  const components = document.components as Json;
  components.headers = {
    RetryAfter: {
      description: 'Seconds to wait before trying again.',
      schema: { type: 'integer', minimum: 1 },
    },
  };
  const schemas: Json = { ...(components.schemas as Json), ...Object.fromEntries(viewSchemas()) };
  components.schemas = schemas;
  const answered = responseSchemaNames(document);
  for (const name of answered) closeObjects(schemas[name]);
  for (const [name, schema] of Object.entries(schemas))
    if (!answered.has(name)) anyTypeForUntyped(schema as Json);
  for (const { operation } of operationsOf(document))
    for (const response of Object.values(operation.responses as Record<string, Json>))
      closeObjects(response.content);
  // By name: the order swagger meets them in depends on how the app was made (preview or not), and
  // the generated client (test/generated/v1.d.ts) must not change with it.
  components.schemas = Object.fromEntries(
    Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  out.webhooks = WEBHOOKS as unknown as OpenAPIObject['webhooks'];
  // Last: the member copies repeat the v1 operations as finished above.
  addEnterpriseMemberPaths(document, ENTERPRISE_SECURITY);
  toJsonSchema2020(document);
  return document;
}
