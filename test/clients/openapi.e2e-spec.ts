import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startApi } from '../support/test-app';

interface Schema {
  $ref?: string;
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  maxLength?: number;
  maximum?: number;
}

interface Operation {
  summary?: string;
  parameters?: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}

/**
 * The OpenAPI document describes the endpoints of the client list whole: a summary, every
 * parameter with its type and limits, the bodies, the answers' schemas and every error code each
 * status may carry.
 */
describe('OpenAPI: /clients (e2e)', () => {
  let app: NestFastifyApplication;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };

  beforeAll(async () => {
    app = await startApi();
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  afterAll(() => app.close());

  const operation = (path: string, method: string): Operation => {
    const op = doc.paths[`/api/v1${path}`]?.[method];
    if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    return op;
  };

  const resolve = (schema: Schema): Schema =>
    schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;

  /** The `error` codes the operation documents, by status, in alphabetical order. */
  const errorCodes = (op: Operation): Record<string, unknown[]> =>
    Object.fromEntries(
      Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => [
          status,
          [
            ...(response.content!['application/json'].schema.properties!.error.enum as string[]),
          ].sort(),
        ]),
    );

  const parameters = (op: Operation) =>
    Object.fromEntries(
      (op.parameters ?? []).map((p) => [p.name, { in: p.in, required: p.required, ...p.schema }]),
    );

  const CLIENT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'notes'];

  it('GET /clients: search and max with their limits, a list of clients, its errors', () => {
    const op = operation('/clients', 'get');
    expect(op.summary).toBe('List or search the client list');
    expect(parameters(op)).toEqual({
      search: expect.objectContaining({
        in: 'query',
        required: false,
        type: 'string',
        maxLength: 255,
      }),
      max: expect.objectContaining({
        in: 'query',
        required: false,
        type: 'integer',
        minimum: 1,
        maximum: 10000,
      }),
    });
    const list = op.responses['200'].content!['application/json'].schema;
    expect(list.type).toBe('array');
    expect(resolve(list.items!)).toMatchObject({ required: CLIENT_FIELDS });
    expect(Object.keys(resolve(list.items!).properties!)).toEqual(CLIENT_FIELDS);
    expect(errorCodes(op)).toEqual({
      '400': ['invalid_max', 'invalid_search'],
      '401': ['unauthorized'],
      '429': ['too_many_requests'],
    });
  });

  it('POST /clients: the body with its rules, the client, its errors', () => {
    const op = operation('/clients', 'post');
    expect(op.summary).toBe('Add a client');
    const body = resolve(op.requestBody!.content['application/json'].schema);
    expect(body.required).toEqual(['firstName', 'lastName']);
    expect(body.properties).toEqual({
      firstName: expect.objectContaining({ type: 'string', maxLength: 255 }),
      lastName: expect.objectContaining({ type: 'string', maxLength: 255 }),
      email: expect.objectContaining({ type: ['string', 'null'], maxLength: 254 }),
      phone: expect.objectContaining({ type: ['string', 'null'], maxLength: 64 }),
      notes: expect.objectContaining({ type: ['string', 'null'], maxLength: 4000 }),
    });
    expect(resolve(op.responses['200'].content!['application/json'].schema).required).toEqual(
      CLIENT_FIELDS,
    );
    expect(errorCodes(op)).toEqual({
      '400': [
        'bad_request',
        'duplicate_client',
        'invalid_email',
        'invalid_first_name',
        'invalid_last_name',
        'invalid_notes',
        'invalid_phone',
        'required_first_name',
        'required_last_name',
      ],
      '401': ['unauthorized'],
      '413': ['payload_too_large'],
      '415': ['unsupported_media_type'],
      '429': ['too_many_requests'],
    });
  });

  const MATCH_PARAMETERS = {
    firstName: expect.objectContaining({ in: 'query', required: true, maxLength: 255 }),
    lastName: expect.objectContaining({ in: 'query', required: true, maxLength: 255 }),
    phone: expect.objectContaining({ in: 'query', required: false, maxLength: 64 }),
    email: expect.objectContaining({ in: 'query', required: false, maxLength: 254 }),
  };
  /** The codes of the query naming a client, in alphabetical order (the document's order is free). */
  const MATCH_ERRORS = [
    'ambiguous_client',
    'invalid_email',
    'invalid_first_name',
    'invalid_last_name',
    'invalid_phone',
    'required_first_name',
    'required_last_name',
  ];

  it('PUT /clients: the query naming the client, an optional body, the client, its errors', () => {
    const op = operation('/clients', 'put');
    expect(op.summary).toBe('Change the client the query names');
    expect(parameters(op)).toEqual(MATCH_PARAMETERS);
    expect(op.requestBody!.required).toBe(false);
    const body = resolve(op.requestBody!.content['application/json'].schema);
    expect(body.required).toBeUndefined();
    expect(Object.keys(body.properties!)).toEqual(CLIENT_FIELDS);
    expect(resolve(op.responses['200'].content!['application/json'].schema).required).toEqual(
      CLIENT_FIELDS,
    );
    expect(errorCodes(op)).toEqual({
      '400': [...MATCH_ERRORS, 'bad_request', 'duplicate_client', 'invalid_notes'].sort(),
      '401': ['unauthorized'],
      '404': ['not_found'],
      '413': ['payload_too_large'],
      '415': ['unsupported_media_type'],
      '429': ['too_many_requests'],
    });
  });

  it('DELETE /clients: the query naming the client, 204, its errors', () => {
    const op = operation('/clients', 'delete');
    expect(op.summary).toBe('Remove the client the query names');
    expect(parameters(op)).toEqual(MATCH_PARAMETERS);
    expect(op.requestBody).toBeUndefined();
    expect(op.responses['204']).toBeDefined();
    // A DELETE may carry a body too, refused as any body is.
    expect(errorCodes(op)).toEqual({
      '400': [...MATCH_ERRORS, 'bad_request'].sort(),
      '401': ['unauthorized'],
      '404': ['not_found'],
      '413': ['payload_too_large'],
      '415': ['unsupported_media_type'],
      '429': ['too_many_requests'],
    });
  });
});
