import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Encryptor, generateEncryptionKey, parseEncryptionKey } from './crypto.js';
import { Engine } from './engine.js';
import { createMcpServer, METHOD_ENUM_LIMIT } from './mcp.js';
import { defineOperation } from './operation.js';
import { definePlugin } from './plugin.js';
import { Registry } from './registry.js';
import { Params } from './schema.js';
import { SqliteStore } from './store/sqlite.js';

const engines: Engine[] = [];
afterAll(async () => {
  for (const engine of engines) await engine.close();
});

async function toolsFor(operationCount: number) {
  const operations = Array.from({ length: operationCount }, (_, i) =>
    defineOperation({
      name: `get_thing_${i}`,
      method: 'GET',
      path: `/things${i}`,
      summary: `Thing ${i}`,
      description: 'Returns a thing.',
      params: Params({}),
      upstream: { method: 'GET', path: `/things${i}` },
    }),
  );
  const registry = new Registry();
  registry.register(
    definePlugin({
      service: 'big',
      displayName: 'Big',
      version: '1',
      description: 'Big.',
      contract: 1,
      upstream: { baseUrl: 'http://x.invalid' },
      auth: {},
      operations,
    }),
  );
  const store = new SqliteStore(':memory:');
  await store.migrate();
  const engine = new Engine({ registry, store, encryptor: new Encryptor(parseEncryptionKey(generateEncryptionKey())) });
  engines.push(engine);
  await engine.connectToken('default', 'big', 't');
  const server = createMcpServer(engine, { keyId: null, workspaceId: 'default', scopes: { admin: true, services: '*', readOnly: false } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

describe('call_{service} for large integrations', () => {
  it(`lists operation names as an enum up to ${METHOD_ENUM_LIMIT} operations, and points to search_methods beyond`, async () => {
    const small = (await toolsFor(METHOD_ENUM_LIMIT)).find((t) => t.name === 'call_big');
    expect((small?.inputSchema.properties?.method as { enum?: string[] } | undefined)?.enum).toHaveLength(METHOD_ENUM_LIMIT);
    const large = await toolsFor(METHOD_ENUM_LIMIT + 1);
    const method = large.find((t) => t.name === 'call_big')?.inputSchema.properties?.method as { enum?: string[]; description: string };
    expect(method.enum).toBeUndefined();
    expect(method.description).toContain('search_methods');
    expect(JSON.stringify(large).length).toBeLessThan(3_000);
  });
});
