import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { describeOperation } from './describe.js';
import { buildOpenApiDocument } from './openapi.js';
import { Registry } from './registry.js';
import { examplePlugin } from './testing/example-plugin.js';

describe('OpenAPI generation', () => {
  const integration = new Registry().register(examplePlugin);
  const document = buildOpenApiDocument(integration, { baseUrl: 'https://gw.example.com' });

  it('produces a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('agrees with the declarations: paths, parameters, body and errors', () => {
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(paths).sort()).toEqual(['/items', '/items/current', '/items/{item_id}']);
    expect(paths['/items']?.get?.operationId).toBe('list_items');
    expect(((paths['/items']?.get?.parameters ?? []) as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:limit',
      'query:status',
      'query:tags',
    ]);
    expect(paths['/items/{item_id}']?.get?.parameters).toEqual([
      { name: 'item_id', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    const body = (
      (paths['/items']?.post?.requestBody ?? { content: {} }) as { content: Record<string, { schema: Record<string, unknown> }> }
    ).content['application/json']?.schema;
    expect(body).toMatchObject({ required: ['name'], properties: { name: { type: 'string' } } });
    expect((paths['/items']?.get?.responses as Record<string, unknown> | undefined)?.default).toEqual({
      $ref: '#/components/responses/Error',
    });
    expect(document.servers).toEqual([{ url: 'https://gw.example.com/api/v1/example' }]);
  });

  it('describes every operation the same way describe_method does', () => {
    const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
    for (const operation of integration.operations.values()) {
      const described = describeOperation(integration, operation);
      const openApiPath = described.http.path.replace('/api/v1/example', '').replace(/:(\w+)/g, '{$1}');
      const entry = paths[openApiPath]?.[described.http.method.toLowerCase()];
      expect(entry?.operationId).toBe(described.method);
      expect(entry?.summary).toBe(described.summary);
      expect(entry?.['x-portico-access']).toBe(described.access);
    }
  });
});
