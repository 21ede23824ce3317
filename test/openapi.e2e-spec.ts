import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startApi } from './support/test-app';

/* The OpenAPI document as clients fetch it: what each operation says of itself. */

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

interface Operation {
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  responses: Record<
    string,
    {
      content?: Record<
        string,
        {
          schema: {
            $ref?: string;
            items?: { $ref?: string };
            properties?: { error?: { enum?: string[] } };
          };
        }
      >;
    }
  >;
  security?: Record<string, string[]>[];
}

interface Schema {
  required?: string[];
  properties: Record<string, Record<string, unknown>>;
}

interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, unknown> };
}

describe('OpenAPI: the operations of payments and of the reference read calls (e2e)', () => {
  let app: NestFastifyApplication;
  let doc: Document;

  beforeAll(async () => {
    app = await startApi();
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json<Document>();
  });

  afterAll(() => app.close());

  const operation = (method: string, path: string): Operation => {
    const found = doc.paths[`/api/v1${path}`]?.[method];
    if (!found) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    return found;
  };

  /** The `error` codes an operation declares, by status. */
  const errors = (op: Operation): Record<string, string[]> =>
    Object.fromEntries(
      Object.entries(op.responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => [
          status,
          response.content?.['application/json']?.schema.properties?.error?.enum ?? [],
        ]),
    );

  const okSchema = (op: Operation) => op.responses['200'].content?.['application/json']?.schema;
  const schemaOf = (ref: string | undefined) =>
    doc.components.schemas[(ref ?? '').replace('#/components/schemas/', '')];
  const param = (op: Operation, name: string) => op.parameters?.find((p) => p.name === name);

  it('accepts Basic and OAuth Bearer on the payment operations', () => {
    expect(doc.components.securitySchemes).toMatchObject({
      basic: { type: 'http', scheme: 'basic' },
      bearer: { type: 'http', scheme: 'bearer' },
    });
    for (const [method, path] of [
      ['get', '/appointments/{id}/payments'],
      ['post', '/appointments/{id}/payments'],
      ['get', '/orders/{id}/payments'],
      ['post', '/orders/{id}/payments'],
    ])
      expect(operation(method, path).security).toEqual(
        expect.arrayContaining([{ basic: [] }, { bearer: [] }]),
      );
  });

  it.each(['appointments', 'orders'])('describes GET /%s/{id}/payments', (resource) => {
    const op = operation('get', `/${resource}/{id}/payments`);
    expect(op.summary).toEqual(expect.any(String));
    expect(param(op, 'id')).toMatchObject({
      in: 'path',
      required: true,
      schema: { type: 'integer', minimum: 1 },
    });
    expect(okSchema(op)).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/PaymentView' },
    });
    expect(errors(op)).toEqual({
      401: ['unauthorized'],
      403: ['forbidden'],
      404: ['not_found'],
      429: ['too_many_requests'],
    });
  });

  it('describes the payment: the reference fields, with examples', () => {
    const payment = schemaOf('#/components/schemas/PaymentView');
    expect(payment.required).toEqual(['transactionID', 'created', 'processor', 'amount', 'reason']);
    expect(payment.properties.created).toMatchObject({
      type: 'string',
      example: '2026-03-03T14:30:00-0500',
    });
    expect(payment.properties.amount).toMatchObject({ type: 'string', example: '25.00' });
    expect(payment.properties.processor.enum).toContain('card-terminal');
  });

  it.each([
    ['appointments', ['appointment_canceled']],
    ['orders', []],
  ])('describes POST /%s/{id}/payments: body, answer, every refusal', (resource, extra) => {
    const op = operation('post', `/${resource}/{id}/payments`);
    expect(op.summary).toEqual(expect.any(String));
    expect(op.description).toContain('transactionID');
    expect(op.requestBody?.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RecordPaymentRequest',
    });
    expect(okSchema(op)).toEqual({ $ref: '#/components/schemas/PaymentView' });
    const refusals = (codes: string) => codes.split(' ');
    expect(errors(op)).toEqual({
      400: refusals(
        'bad_request required_amount invalid_amount required_processor invalid_processor ' +
          'invalid_transaction_id invalid_reason required_reason refund_exceeds_paid too_many_payments',
      ).concat(extra),
      401: ['unauthorized'],
      403: ['forbidden'],
      404: ['not_found'],
      409: ['transaction_id_reused'],
      413: ['payload_too_large'],
      415: ['unsupported_media_type'],
      429: ['too_many_requests'],
    });
    const body = schemaOf('#/components/schemas/RecordPaymentRequest');
    expect(body.required).toEqual(['amount', 'processor']);
    expect(Object.keys(body.properties)).toEqual([
      'amount',
      'processor',
      'transactionID',
      'reason',
    ]);
    expect(body.properties.transactionID).toMatchObject({ maxLength: 255 });
    expect(body.properties.reason).toMatchObject({ maxLength: 1000 });
  });

  it('describes PUT /orders/{id}/complete and the order it answers', () => {
    const op = operation('put', '/orders/{id}/complete');
    expect(op.summary).toEqual(expect.any(String));
    expect(okSchema(op)).toEqual({ $ref: '#/components/schemas/OrderView' });
    expect(schemaOf('#/components/schemas/OrderView').properties.status).toMatchObject({
      enum: ['unpaid', 'paid', 'delivered'],
    });
    expect(errors(op)).toMatchObject({ 403: ['forbidden'], 404: ['not_found'] });
  });

  it('describes every parameter the reference documents for GET /appointments', () => {
    const op = operation('get', '/appointments');
    expect(op.summary).toEqual(expect.any(String));
    expect(op.parameters?.map((p) => p.name).sort()).toEqual(
      (
        'max minDate maxDate calendarID appointmentTypeID canceled firstName lastName email ' +
        'phone field:ID excludeForms direction showall' +
        // This service's own: a series' appointments (docs/series.md).
        ' seriesID'
      )
        .split(' ')
        .sort(),
    );
    expect(op.parameters?.every((p) => p.in === 'query' && !p.required && p.description)).toBe(
      true,
    );
    expect(param(op, 'direction')?.schema).toEqual({
      type: 'string',
      enum: ['ASC', 'DESC'],
      default: 'DESC',
    });
    expect(param(op, 'max')?.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 100,
    });
    for (const name of ['minDate', 'maxDate'])
      expect(param(op, name)?.schema).toMatchObject({ type: 'string', format: 'date' });
    for (const name of ['canceled', 'excludeForms', 'showall'])
      expect(param(op, name)?.schema).toEqual({ type: 'boolean', default: false });
    expect(okSchema(op)).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/AppointmentObject' },
    });
    expect(errors(op)[400]).toEqual(expect.arrayContaining(['invalid_direction', 'invalid_field']));
    expect(errors(op)[403]).toEqual(['forbidden']);
  });

  it('describes GET /appointments/{id} with pastFormAnswers, and the Appointment object', () => {
    const op = operation('get', '/appointments/{id}');
    expect(param(op, 'pastFormAnswers')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'boolean', default: false },
    });
    expect(okSchema(op)).toEqual({ $ref: '#/components/schemas/AppointmentObject' });
    expect(errors(op)).toMatchObject({
      400: ['invalid_past_form_answers'],
      403: ['forbidden'],
      404: ['not_found'],
    });
    const appointment = schemaOf('#/components/schemas/AppointmentObject');
    expect(appointment.required).toEqual(
      expect.arrayContaining(['price', 'priceSold', 'paid', 'amountPaid', 'forms', 'datetime']),
    );
    expect(appointment.properties.paid).toMatchObject({ enum: ['yes', 'no'], example: 'no' });
    expect(appointment.properties.amountPaid).toMatchObject({ type: 'string', example: '15.00' });
  });

  it('describes every parameter the reference documents for GET /availability/classes', () => {
    const op = operation('get', '/availability/classes');
    expect(op.parameters?.map((p) => p.name).sort()).toEqual(
      (
        'appointmentTypeID calendarID includePrivate includeUnavailable maxDate minDate month ' +
        'timezone'
      ).split(' '),
    );
    expect(param(op, 'includePrivate')?.schema).toEqual({ type: 'boolean', default: false });
    expect(param(op, 'month')?.schema).toMatchObject({ type: 'string', example: '2030-06' });
    expect(okSchema(op)).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/AvailableClass' },
    });
    expect(errors(op)[400]).toEqual(expect.arrayContaining(['invalid_include_private']));
  });

  it("describes GET /appointment-types/{id}: the list's fields, then the rules", () => {
    const op = operation('get', '/appointment-types/{id}');
    expect(okSchema(op)).toEqual({ $ref: '#/components/schemas/AppointmentTypeDetails' });
    expect(errors(op)).toMatchObject({ 403: ['forbidden'], 404: ['not_found'] });
    const listed = Object.keys(schemaOf('#/components/schemas/AppointmentTypeView').properties);
    const details = Object.keys(schemaOf('#/components/schemas/AppointmentTypeDetails').properties);
    expect(details).toEqual([
      ...listed,
      'slotInterval',
      'minHoursInAdvance',
      'maxDaysInAdvance',
      'requireSmsOptIn',
      'maxPerDay',
      'maxPerWeek',
      // This service's own: the series its clients may book (docs/series.md).
      'recurrence',
      // And how a booking naming no calendar picks one (docs/team-scheduling.md).
      'assignment',
      'weights',
      'collective',
    ]);
    expect(okSchema(operation('get', '/appointment-types'))).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/AppointmentTypeView' },
    });
  });

  it('describes GET /appointment-types/{id}/assignment-stats: its dates, view and refusals', () => {
    const op = operation('get', '/appointment-types/{id}/assignment-stats');
    expect(param(op, 'minDate')?.schema).toEqual({ type: 'string', format: 'date' });
    expect(param(op, 'maxDate')?.schema).toEqual({ type: 'string', format: 'date' });
    expect(okSchema(op)).toEqual({ $ref: '#/components/schemas/AssignmentStatsView' });
    expect(errors(op)).toMatchObject({
      400: ['invalid_min_date', 'invalid_max_date'],
      403: ['forbidden'],
      404: ['not_found'],
    });
    const view = schemaOf('#/components/schemas/AssignmentStatsView');
    expect(Object.keys(view.properties)).toEqual([
      'appointmentTypeID',
      'assignment',
      'minDate',
      'maxDate',
      'appointments',
      'calendars',
    ]);
  });

  it("describes /resources: each operation, its refusals, the view, and the types' resourceIDs", () => {
    const view = { $ref: '#/components/schemas/ResourceView' };
    const common = { 401: ['unauthorized'], 429: ['too_many_requests'] };
    const body = { 413: ['payload_too_large'], 415: ['unsupported_media_type'] };
    const byId = { 403: ['forbidden'], 404: ['not_found'] };
    const attributes = (...codes: string[]) =>
      ['invalid_appointment_type', 'bad_request', ...codes, 'invalid_appointment_type_ids'].sort();
    const sorted = (op: Operation) =>
      Object.fromEntries(
        Object.entries(errors(op)).map(([status, codes]) => [status, codes.sort()]),
      );

    const list = operation('get', '/resources');
    expect(okSchema(list)).toEqual({ type: 'array', items: view });
    expect(errors(list)).toEqual(common);
    const read = operation('get', '/resources/{id}');
    expect(okSchema(read)).toEqual(view);
    expect(errors(read)).toEqual({ ...common, ...byId });

    const create = operation('post', '/resources');
    expect(create.requestBody?.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreateResourceRequest',
    });
    expect(okSchema(create)).toEqual(view);
    expect(sorted(create)).toEqual({
      ...common,
      ...body,
      400: attributes('invalid_name', 'required_name', 'invalid_quantity', 'required_quantity'),
      403: ['forbidden'],
    });
    const update = operation('put', '/resources/{id}');
    expect(okSchema(update)).toEqual(view);
    expect(sorted(update)).toEqual({
      ...common,
      ...body,
      ...byId,
      400: attributes('invalid_name', 'invalid_quantity'),
    });

    const remove = operation('delete', '/resources/{id}');
    expect(remove.description).toContain('resource_in_use');
    expect(Object.keys(remove.responses)).toContain('204');
    expect(errors(remove)).toEqual({
      ...common,
      ...body,
      ...byId,
      400: ['resource_in_use', 'bad_request'],
    });
    for (const op of [list, read, create, update, remove])
      expect(op.summary).toEqual(expect.any(String));

    const resource = schemaOf(view.$ref);
    expect(resource.required).toEqual(['id', 'name', 'quantity', 'appointmentTypeIDs']);
    expect(
      schemaOf('#/components/schemas/CreateResourceRequest').properties.quantity,
    ).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000 });
    for (const type of ['AppointmentTypeView', 'AppointmentTypeDetails'])
      expect(schemaOf(`#/components/schemas/${type}`).required).toContain('resourceIDs');
    for (const op of [
      operation('post', '/appointment-types'),
      operation('put', '/appointment-types/{id}'),
    ])
      expect(errors(op)[400]).toEqual(
        expect.arrayContaining(['invalid_resource', 'invalid_resource_ids']),
      );
  });
});
