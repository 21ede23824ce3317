import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  type SchemaObject,
} from '@nestjs/swagger';
import { API_SCOPE } from './oauth.errors';

/* The OAuth 2.0 endpoints. Errors are `{error, message}` (RFC 6749 §5.2): OAuthEndpointFilter. */

const json = (schema: SchemaObject) => ({ 'application/json': { schema } });

const oauthError = (codes: string[], description: string) => ({
  description,
  content: json({
    type: 'object',
    additionalProperties: false,
    required: ['error', 'message'],
    properties: {
      error: { type: 'string', enum: codes },
      message: { type: 'string' },
    },
  }),
});

const CLIENT_AUTH =
  'The app authenticates with HTTP Basic (client id and secret) or with `client_id` and ' +
  '`client_secret` in the form (one way only).';

/** An endpoint the app calls with its credentials: a form in, JSON out, OAuth's errors. */
const clientEndpoint = (spec: {
  summary: string;
  description: string;
  form: Record<string, SchemaObject>;
  required: string[];
  ok: { description: string; schema: SchemaObject };
  refused: { codes: string[]; description: string };
}) =>
  applyDecorators(
    ApiOperation({
      summary: spec.summary,
      description: `${spec.description} ${CLIENT_AUTH}`,
      security: [{ oauthClient: [] }, {}],
    }),
    ApiConsumes('application/x-www-form-urlencoded'),
    ApiBody({
      required: true,
      schema: {
        type: 'object',
        required: spec.required,
        properties: {
          ...spec.form,
          client_id: { type: 'string' },
          client_secret: { type: 'string' },
        },
      },
    }),
    ApiResponse({ status: 200, description: spec.ok.description, content: json(spec.ok.schema) }),
    ApiResponse({ status: 400, ...oauthError(spec.refused.codes, spec.refused.description) }),
    ApiResponse({
      status: 401,
      ...oauthError(['invalid_client'], 'Client authentication failed.'),
    }),
  );

export const ApiToken = () =>
  clientEndpoint({
    summary: 'Exchange an authorization code for an access token',
    description: 'RFC 6749 §4.1.3, with PKCE (RFC 7636) when the authorization asked for it.',
    form: {
      grant_type: { type: 'string', enum: ['authorization_code'] },
      code: { type: 'string', description: 'The code the redirect brought.' },
      redirect_uri: { type: 'string', format: 'uri', description: 'As in the authorization.' },
      code_verifier: {
        type: 'string',
        pattern: '^[A-Za-z0-9._~-]{43,128}$',
        description: 'PKCE: required when the authorization sent a `code_challenge`.',
      },
      scope: { type: 'string', enum: [API_SCOPE] },
    },
    required: ['grant_type', 'code', 'redirect_uri'],
    ok: {
      description: 'The access token; send it as `Authorization: Bearer <token>`.',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['access_token', 'token_type'],
        properties: {
          access_token: { type: 'string', example: 'f1c8…' },
          token_type: { type: 'string', enum: ['Bearer'] },
        },
      },
    },
    refused: {
      codes: ['invalid_request', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope'],
      description:
        'A malformed request, or a code that is invalid, expired, used or not this client’s.',
    },
  });

export const ApiDisconnect = () =>
  clientEndpoint({
    summary: 'Disable an access token of this app',
    description: 'The account is disconnected from the app.',
    form: { access_token: { type: 'string' } },
    required: ['access_token'],
    ok: {
      description: 'Done (also for a token already disabled).',
      schema: { type: 'object', additionalProperties: false, properties: {} },
    },
    refused: {
      codes: ['invalid_request', 'invalid_grant'],
      description: 'A malformed request, or a token not this app’s.',
    },
  });

const query = (
  name: string,
  description: string,
  schema: Record<string, unknown>,
  required = true,
) => ApiQuery({ name, required, description, schema });

/** `GET /oauth2/authorize`: where the app sends the person. */
export const ApiAuthorize = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Start an authorization (a page for the person, not an API call)',
      description:
        'Shows the sign-in form, then the consent page; on consent the browser is redirected to ' +
        '`redirect_uri` with `code` and `state` (or `error`). The app then calls POST /oauth2/token.',
      security: [],
    }),
    query('response_type', 'Always `code`.', { type: 'string', enum: ['code'] }),
    query('client_id', "The app's client id.", { type: 'string' }),
    query('redirect_uri', 'One of the redirect URIs registered for the app, exactly.', {
      type: 'string',
      format: 'uri',
    }),
    query('scope', 'The API.', { type: 'string', enum: [API_SCOPE] }),
    query('state', 'Given back on the redirect; the app checks it.', { type: 'string' }, false),
    query(
      'code_challenge',
      'PKCE (RFC 7636): BASE64URL(SHA256(code_verifier)).',
      { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
      false,
    ),
    query('code_challenge_method', 'PKCE: `S256`.', { type: 'string', enum: ['S256'] }, false),
    ApiResponse({
      status: 200,
      description: 'The sign-in or consent page.',
      content: { 'text/html': { schema: { type: 'string' } } },
    }),
    ApiResponse({
      status: 302,
      description:
        "To `redirect_uri` with `error` (and `state`): a refusal the app's page handles.",
      headers: { Location: { schema: { type: 'string', format: 'uri' } } },
    }),
    ApiResponse({
      status: 400,
      description: 'An unknown app or a redirect URI not registered: an error page, no redirect.',
      content: { 'text/html': { schema: { type: 'string' } } },
    }),
  );
