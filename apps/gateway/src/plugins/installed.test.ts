import SwaggerParser from '@apidevtools/swagger-parser';
import { buildOpenApiDocument, compilerReady, describeOperation, type Plugin, Registry, silentLogger } from '@portico/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPlugins } from './load.js';

// Core loads typebox's compiler with the first validation; these tests call validators directly.
await compilerReady();

/** Every first-party plugin installed in this workspace, with the operation count the specification gives it. */
const EXPECTED: Record<string, number> = { lawmatics: 86, quickbooks: 67, clio: 282, notion: 20, slack: 18, callrail: 32 };

let plugins: Plugin[];
beforeAll(async () => {
  plugins = await loadPlugins(undefined, silentLogger);
});

describe('installed plugins', () => {
  it('are all loaded', () => {
    expect(plugins.map((p) => p.service).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s declares %i operations, each documented for a model', (service, count) => {
    const plugin = plugins.find((p) => p.service === service) as Plugin;
    const integration = new Registry().register(plugin);
    expect(integration.operations.size).toBe(count);
    for (const operation of integration.operations.values()) {
      const { definition } = operation;
      expect(definition.summary.length, `${operation.name} summary`).toBeGreaterThan(5);
      expect(definition.description.length, `${operation.name} description`).toBeGreaterThan(30);
      const properties = (definition.params.properties ?? {}) as Record<string, { description?: string }>;
      for (const [name, schema] of Object.entries(properties)) {
        expect(schema.description, `${operation.name}.${name} description`).toBeTruthy();
      }
      // Large results are paged, never silently cut: an operation that pages says how in its description.
      const pager = ['cursor', 'start_cursor', 'page', 'page_token', 'offset'].find((name) => name in properties);
      if (pager) expect(definition.description, `${operation.name} explains paging`).toContain(pager);
    }
  });

  it.each(Object.keys(EXPECTED))('%s has a valid OpenAPI 3.1 document that agrees with describe_method', async (service) => {
    const plugin = plugins.find((p) => p.service === service) as Plugin;
    const integration = new Registry().register(plugin);
    const document = buildOpenApiDocument(integration, { baseUrl: 'http://127.0.0.1:8787' });
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
    const paths = document.paths as Record<
      string,
      Record<string, { operationId: string; summary: string; parameters?: Array<{ name: string }> }>
    >;
    const operationIds = Object.values(paths).flatMap((entry) => Object.values(entry).map((op) => op.operationId));
    expect(operationIds.sort()).toEqual([...integration.operationNames].sort());
    for (const operation of integration.operations.values()) {
      const described = describeOperation(integration, operation);
      const path = described.http.path.slice(`/api/v1/${service}`.length).replace(/:(\w+)/g, '{$1}');
      const entry = paths[path]?.[described.http.method.toLowerCase()];
      expect(entry?.operationId, `${operation.name} at ${described.http.method} ${path}`).toBe(operation.name);
      expect(entry?.summary).toBe(described.summary);
      const described_params = Object.keys((described.params.properties ?? {}) as object);
      if (described.http.method === 'GET') {
        expect((entry?.parameters ?? []).map((p) => p.name).sort()).toEqual(described_params.sort());
      }
      // the example describe_method offers must pass the operation's own validation
      expect(operation.validator.problems(described.example.arguments.params), `${operation.name} example`).toEqual([]);
    }
  });
});
