import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument, Registry } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { clioPlugin } from './index.js';

type Json = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; schema?: Json };

describe('the Clio OpenAPI document', () => {
  const integration = new Registry().register(clioPlugin);
  const document = buildOpenApiDocument(integration, { baseUrl: 'https://gw.example.com' });
  const paths = document.paths as Record<string, Record<string, Json>>;
  const entries = Object.values(paths).flatMap((item) => Object.values(item));
  const at = (path: string, method: string): Json => {
    const entry = paths[path]?.[method];
    if (!entry) throw new Error(`no ${method} ${path} in the document`);
    return entry;
  };
  const parameters = (entry: Json) => (entry.parameters ?? []) as Parameter[];
  const where = (entry: Json) => parameters(entry).map((p) => `${p.in}:${p.name}`);

  it('is a valid OpenAPI 3.1 document', async () => {
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('lists the 61 + 102 + 119 operations below the gateway server of the clio service', () => {
    expect(entries).toHaveLength(61 + 102 + 119);
    expect(new Set(entries.map((entry) => entry.operationId)).size).toBe(61 + 102 + 119);
    expect(document.servers).toEqual([{ url: 'https://gw.example.com/api/v1/clio' }]);
  });

  it('documents fields of every create and update as a query parameter, the body fields in the JSON body', () => {
    const writes = Object.entries(paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => method === 'post' || method === 'patch')
        .map(([method, entry]) => [`${method} ${path}`, entry] as const),
    );
    expect(writes).toHaveLength(17 + 34 + 44);
    // The webhook writes have a body field named fields; generate_report_from_preset takes no parameter but its id.
    const exceptions = new Set(['post /webhooks', 'patch /webhooks/{id}', 'post /report_presets/{id}/generate_report']);
    for (const [name, entry] of writes.filter(([name]) => !exceptions.has(name))) {
      expect(where(entry), name).toContain('query:fields');
      const body = (entry.requestBody as { content: Record<string, { schema: Json }> }).content['application/json']?.schema;
      expect(Object.keys((body?.properties ?? {}) as Json), name).not.toContain('fields');
    }
    const create = at('/calendar_entries', 'post').requestBody as { content: Record<string, { schema: Json }> };
    expect(create.content['application/json']?.schema.required).toEqual(['calendar_owner', 'start_at', 'end_at', 'summary']);
    const update = at('/calendar_entries/{id}', 'patch').requestBody as { content: Record<string, { schema: Json }> };
    expect(update.content['application/json']?.schema.required).toBeUndefined();
  });

  it('puts list filters in the query with Clio’s names, and path ids in the path', () => {
    const list = at('/activities', 'get');
    expect(where(list)).toEqual(
      expect.arrayContaining(['query:ids[]', 'query:matter_id', 'query:limit', 'query:page_token', 'query:order']),
    );
    const limit = parameters(list).find((p) => p.name === 'limit');
    expect(limit?.schema).toMatchObject({ type: 'string', default: '200' });
    const triggers = at('/court_rules/jurisdictions/{jurisdiction_id}/triggers', 'get');
    expect(where(triggers)).toContain('path:jurisdiction_id');
    expect(parameters(triggers).find((p) => p.name === 'limit')?.schema).toMatchObject({ default: '1000' });
    expect(where(at('/court_rules/matter_dockets/preview', 'get'))).toEqual(
      expect.arrayContaining(['query:jurisdiction[id]', 'query:service_type[id]', 'query:trigger[id]']),
    );
  });
});
