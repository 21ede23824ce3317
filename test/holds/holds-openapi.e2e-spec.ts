import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startApi } from '../support/test-app';

interface Operation {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema: Schema & { $ref?: string } }> };
  responses: Record<
    string,
    { content?: Record<string, { schema: Schema & { $ref?: string } }> } | undefined
  >;
  security?: Record<string, string[]>[];
}

interface Schema {
  required?: string[];
  properties?: Record<string, Record<string, unknown> & { enum?: string[] }>;
}

/* The OpenAPI document describes the holds' operations and the fields that holds and limits add. */
describe('OpenAPI: slot holds and booking limits (e2e)', () => {
  let app: NestFastifyApplication;
  let doc: {
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Schema> };
  };

  beforeAll(async () => {
    app = await startApi();
    doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });

  afterAll(() => app.close());

  const operation = (method: string, path: string): Operation => {
    const found = doc.paths[`/api/v1${path}`]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    return found;
  };
  const codes = (op: Operation, status: number) =>
    op.responses[String(status)]?.content?.['application/json']?.schema.properties?.error?.enum;
  const schema = (ref: string | undefined) =>
    doc.components.schemas[(ref ?? '').replace('#/components/schemas/', '')];

  it('describes each /slot-holds operation, Basic and Bearer, with its refusals', () => {
    const create = operation('post', '/slot-holds');
    expect(create.security).toEqual(expect.arrayContaining([{ basic: [] }, { bearer: [] }]));
    expect(codes(create, 400)).toEqual(
      expect.arrayContaining(['not_available', 'no_available_calendar', 'invalid_minutes']),
    );
    expect(codes(create, 403)).toEqual(['forbidden']);
    const created = schema(create.responses['200']?.content?.['application/json']?.schema.$ref);
    expect(created.required).toEqual(
      expect.arrayContaining(['id', 'token', 'calendarID', 'datetime', 'expiresAt']),
    );
    const body = schema(create.requestBody?.content['application/json']?.schema.$ref);
    expect(Object.keys(body.properties ?? {})).toEqual([
      'appointmentTypeID',
      'datetime',
      'calendarID',
      'addonIDs',
      'timezone',
      'minutes',
    ]);
    for (const method of ['get', 'put', 'delete']) {
      const op = operation(method, '/slot-holds/{id}');
      expect(op.summary).toEqual(expect.any(String));
      expect(op.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' })]),
      );
      expect(codes(op, 404)).toEqual(['not_found']);
    }
    expect(codes(operation('put', '/slot-holds/{id}'), 400)).toEqual([
      'bad_request',
      'required_minutes',
      'invalid_minutes',
    ]);
  });

  it('describes holdToken on POST /appointments and its refusal', () => {
    const book = operation('post', '/appointments');
    expect(book.requestBody?.content['application/json']?.schema.properties).toHaveProperty(
      'holdToken',
    );
    expect(codes(book, 400)).toEqual(expect.arrayContaining(['invalid_hold_token']));
  });

  it('shows the limits of an appointment type', () => {
    const details = schema('#/components/schemas/AppointmentTypeDetails');
    expect(details.properties).toMatchObject({
      maxPerDay: { type: 'integer', nullable: true },
      maxPerWeek: { type: 'integer', nullable: true },
    });
  });
});
