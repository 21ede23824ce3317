import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { startApi } from '../support/test-app';

interface Operation {
  operationId: string;
  tags: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  responses: Record<
    string,
    { content?: { 'application/json': { schema: { properties: { error: { enum: string[] } } } } } }
  >;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; scheme: string }> };
  tags: { name: string; description: string }[];
};

const METHODS = ['get', 'post', 'put', 'delete'];

describe('OpenAPI: the enterprise API beside v1 (e2e)', () => {
  let app: NestFastifyApplication;
  let doc: Document;

  beforeAll(async () => {
    app = await startApi();
    doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(() => app.close());

  const errorCodes = (operation: Operation, status: number) =>
    operation.responses[status]?.content?.['application/json'].schema.properties.error.enum;

  it('has the enterprise security scheme: Basic, enterprise id and key', () => {
    expect(doc.components.securitySchemes.enterprise).toMatchObject({
      type: 'http',
      scheme: 'basic',
    });
    const tag = doc.tags.find((t) => t.name === 'enterprise');
    expect(tag?.description).toContain('/api/enterprise/v1/users/{userId}/');
  });

  it.each([
    ['/api/enterprise/v1/users', 'get'],
    ['/api/enterprise/v1/users', 'post'],
    ['/api/enterprise/v1/webhooks', 'get'],
    ['/api/enterprise/v1/webhooks', 'post'],
    ['/api/enterprise/v1/webhooks/{id}', 'delete'],
  ])('describes %s %s: enterprise security, 401 and 429', (path, method) => {
    const operation = doc.paths[path]?.[method];
    expect(operation).toBeDefined();
    expect(operation.security).toEqual([{ enterprise: [] }]);
    expect(operation.tags).toEqual(['enterprise']);
    expect(errorCodes(operation, 401)).toEqual(['unauthorized']);
    expect(errorCodes(operation, 429)).toEqual(['too_many_requests']);
  });

  it('describes every v1 operation again under /users/{userId}/, with userId, enterprise security and the member refusals', () => {
    const v1 = Object.entries(doc.paths).filter(
      ([path]) => path.startsWith('/api/v1/') && path !== '/api/v1/openapi.json',
    );
    expect(v1.length).toBeGreaterThan(30);
    let operations = 0;
    for (const [path, item] of v1) {
      const member = doc.paths[path.replace('/api/v1/', '/api/enterprise/v1/users/{userId}/')];
      expect({ path, methods: Object.keys(member ?? {}).sort() }).toEqual({
        path,
        methods: Object.keys(item)
          .filter((m) => METHODS.includes(m))
          .sort(),
      });
      for (const method of Object.keys(member)) {
        const operation = member[method];
        operations++;
        expect(operation.security).toEqual([{ enterprise: [] }]);
        expect(operation.parameters?.[0]).toMatchObject({
          name: 'userId',
          in: 'path',
          required: true,
        });
        expect(errorCodes(operation, 403)).toContain('forbidden');
        expect(errorCodes(operation, 404)).toContain('not_found');
        // The v1 operation itself is left as it was.
        expect(item[method].security).not.toEqual([{ enterprise: [] }]);
        expect(item[method].operationId).not.toMatch(/^enterprise_/);
      }
    }
    expect(operations).toBeGreaterThan(60);
  });
});
