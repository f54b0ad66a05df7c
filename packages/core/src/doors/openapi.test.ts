import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { defineOperation } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { atLeastOne, FreeObject, Params, Type, together } from '../contract/schema.js';
import { examplePlugin } from '../testing/example-plugin.js';
import { describeOperation } from './describe.js';
import { buildOpenApiDocument } from './openapi.js';

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

describe('OpenAPI generation: what a plugin declares beyond the defaults', () => {
  // The shape the legal CRM needs: two alternative security schemes on every operation and a fixed document version;
  // and the shape Clio needs: a POST whose `fields` travels in the query string.
  const plugin = definePlugin({
    service: 'crmlike',
    displayName: 'CRM-like',
    version: '0.3.0',
    description: 'A test integration.',
    contract: 1,
    upstream: { baseUrl: 'https://crm.invalid/v1' },
    auth: { token: { description: 'a token' } },
    openapi: {
      version: '1.0.0',
      securitySchemes: {
        bearerApiKey: { type: 'http', scheme: 'bearer', description: 'A Portico API key' },
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: 'https://gw.example.com/oauth/token', scopes: {} } },
        },
      },
    },
    operations: [
      defineOperation({
        name: 'list_prospects',
        method: 'GET',
        path: '/prospects',
        summary: 'List prospects',
        description: 'Lists prospects.',
        params: Params(
          { start_date: Type.Optional(Type.String()), end_date: Type.Optional(Type.String()) },
          { rules: [together('start_date', 'end_date')] },
        ),
        upstream: { method: 'GET', path: '/prospects' },
      }),
      defineOperation({
        name: 'create_note',
        method: 'POST',
        path: '/notes',
        summary: 'Create a note',
        description: 'Creates a note.',
        params: Params(
          {
            fields: Type.Optional(Type.String({ description: 'Fields to return' })),
            body: Type.Optional(Type.String()),
            parent: Type.Optional(FreeObject()),
            discussion_id: Type.Optional(Type.String()),
          },
          { rules: [atLeastOne('parent', 'discussion_id')] },
        ),
        locations: { fields: 'query' },
        upstream: { method: 'POST', path: '/notes' },
      }),
    ],
  });
  const integration = new Registry().register(plugin);
  const document = buildOpenApiDocument(integration, { baseUrl: 'https://gw.example.com' });
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;

  it('is valid OpenAPI 3.1', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('declares both security schemes, either one satisfying every operation, and the plugin’s document version', () => {
    expect((document.info as { version: string }).version).toBe('1.0.0');
    const schemes = (document.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
    expect(Object.keys(schemes)).toEqual(['bearerApiKey', 'oauth2']);
    // whatever flow the plugin wrote, the oauth2 scheme is the gateway's own authorization code flow
    expect(schemes.oauth2).toMatchObject({
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://gw.example.com/dashboard/authorize',
          tokenUrl: 'https://gw.example.com/oauth/token',
        },
      },
    });
    expect(JSON.stringify(schemes.oauth2)).not.toContain('clientCredentials');
    for (const operation of [paths['/prospects']?.get, paths['/notes']?.post]) {
      expect(operation?.security).toEqual([{ bearerApiKey: [] }, { oauth2: [] }]);
    }
  });

  it('states its licence, as Redocly’s recommended-strict rules ask (OpenAPI 3.1 SPDX identifier)', () => {
    expect((document.info as { license?: unknown }).license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('documents a POST parameter declared as query in the query string, the rest in the body', () => {
    const post = paths['/notes']?.post as { parameters: Array<Record<string, unknown>>; requestBody: Record<string, unknown> };
    expect(post.parameters).toEqual([
      { name: 'fields', in: 'query', required: false, description: 'Fields to return', schema: { type: 'string' } },
    ]);
    const body = (post.requestBody.content as Record<string, { schema: Record<string, unknown> }>)['application/json']?.schema;
    expect(Object.keys(body?.properties as object)).toEqual(['body', 'parent', 'discussion_id']);
    // a rule among body parameters belongs to the body schema
    expect(body?.allOf).toEqual([{ anyOf: [{ required: ['parent'] }, { required: ['discussion_id'] }] }]);
  });

  it('states cross-field rules among query parameters in the operation description', () => {
    expect(paths['/prospects']?.get?.description).toBe(
      'Lists prospects.\n\nParameter rules: start_date requires end_date. end_date requires start_date.',
    );
  });

  it('gives describe_method a REST example that sends the query parameter in the query string', () => {
    const operation = integration.operations.get('create_note');
    if (!operation) throw new Error('create_note missing');
    const described = describeOperation(integration, {
      ...operation,
      definition: { ...operation.definition, example: { fields: 'id,name', body: 'x' } },
    });
    expect(described.rest_example).toEqual({
      method: 'POST',
      url: '/api/v1/crmlike/notes',
      query: { fields: 'id,name' },
      body: { body: 'x' },
    });
  });
});
