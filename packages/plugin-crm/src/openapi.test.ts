import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument, describeOperation, Registry } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { lawmaticsPlugin } from './index.js';

type Json = Record<string, unknown>;

describe('the Lawmatics OpenAPI document', () => {
  const integration = new Registry().register(lawmaticsPlugin);
  const document = buildOpenApiDocument(integration, { baseUrl: 'https://gw.example.com' });
  const paths = document.paths as Record<string, Record<string, Json>>;
  const entries = Object.values(paths).flatMap((item) => Object.values(item));
  const at = (path: string, method: string): Json => {
    const entry = paths[path]?.[method];
    if (!entry) throw new Error(`no ${method} ${path} in the document`);
    return entry;
  };

  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('declares info.version 1.0.0, as the specification says, and the gateway server', () => {
    expect(document.openapi).toBe('3.1.0');
    expect((document.info as Json).version).toBe('1.0.0');
    expect(document.servers).toEqual([{ url: 'https://gw.example.com/api/v1/lawmatics' }]);
  });

  it('lists 86 operations', () => {
    expect(entries).toHaveLength(86);
    expect(new Set(entries.map((entry) => entry.operationId)).size).toBe(86);
  });

  it('declares bearerApiKey and oauth2, both Portico’s own, and lists both as alternatives on every operation', () => {
    const schemes = (document.components as Json).securitySchemes as Record<string, Json>;
    expect(Object.keys(schemes).sort()).toEqual(['bearerApiKey', 'oauth2']);
    expect(schemes.bearerApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(String(schemes.bearerApiKey?.description)).toMatch(/Portico API key/);
    // the gateway's own authorization server, not Lawmatics': a client generated from the document gets tokens the gateway takes
    expect(schemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: {
        authorizationCode: {
          authorizationUrl: 'https://gw.example.com/dashboard/authorize',
          tokenUrl: 'https://gw.example.com/oauth/token',
          refreshUrl: 'https://gw.example.com/oauth/token',
          scopes: {},
        },
      },
    });
    expect(String(schemes.oauth2?.description)).toMatch(/PKCE \(S256 only/);
    expect(JSON.stringify(document)).not.toContain('lawmatics.com/oauth');
    for (const entry of entries) expect(entry.security, String(entry.operationId)).toEqual([{ bearerApiKey: [] }, { oauth2: [] }]);
  });

  it('documents 400, 401, 404 and 502 with the error body on every operation', () => {
    for (const entry of entries) {
      const responses = entry.responses as Record<string, unknown>;
      for (const status of ['400', '401', '404', '502']) {
        expect(responses[status], `${String(entry.operationId)} ${status}`).toEqual({ $ref: `#/components/responses/Error${status}` });
      }
    }
    const error = ((document.components as Json).schemas as Record<string, Json>).Error;
    expect(error).toMatchObject({ required: ['error', 'code', 'message'], additionalProperties: false });
  });

  it('puts list parameters in the query, write fields in the JSON body, and notify_attendees of cancel_event in the query', () => {
    const parameters = (entry: Json | undefined) =>
      ((entry?.parameters ?? []) as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`);
    expect(parameters(paths['/prospects']?.get)).toEqual([
      'query:sort_order',
      'query:sort_by',
      'query:filter_by',
      'query:filter_on',
      'query:filter_with',
      'query:page',
      'query:fields',
    ]);
    expect(parameters(paths['/events/{id}']?.delete)).toEqual(['path:id', 'query:notify_attendees']);
    const requestBody = at('/interactions', 'post').requestBody as { content: Record<string, { schema: Json }> };
    const body = requestBody.content['application/json']?.schema;
    expect(body?.required).toEqual(['prospect_id', 'happened_at', 'interaction_type', 'body']);
  });

  it('shows the response schema of an operation the same way describe_method does', () => {
    const operation = integration.operations.get('get_prospect');
    if (!operation) throw new Error('get_prospect is not registered');
    const described = describeOperation(integration, operation);
    const responses = at('/prospects/{id}', 'get').responses as Record<string, { content: Record<string, { schema: Json }> }>;
    const schema = responses['200']?.content['application/json']?.schema as Json;
    expect(schema).toEqual(described.response);
    const firstOf = (property: Json | undefined) => ((property?.anyOf ?? []) as Json[])[0] ?? {};
    const record = firstOf((schema.properties as Record<string, Json>).data);
    const attributes = firstOf((record.properties as Record<string, Json>).attributes);
    expect(Object.keys(attributes.properties as Json)).toEqual(
      expect.arrayContaining(['case_title', 'estimated_value_cents', 'custom_fields']),
    );
  });
});
