import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { COMPACT_DESCRIPTION_BUDGET, silentLogger } from '@portico/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, startTestGateway, type TestGateway } from '../gateway.test-support.js';
import { loadPlugins } from '../plugins/load.js';

/** What describe_method answers an assistant, over the wire, for every operation of every first-party plugin. */
let gateway: TestGateway;
let client: Client;

beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true });
  client = await connectMcp(gateway.url, gateway.key);
});
afterAll(async () => {
  await client?.close();
  await gateway?.close();
});

/** The text of a tools/call result as the JSON-RPC answer carries it. */
async function describeText(args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
  const result = await client.callTool({ name: 'describe_method', arguments: args });
  const [first] = result.content as Array<{ type: string; text: string }>;
  return { text: first?.text ?? '', isError: Boolean(result.isError) };
}

describe('describe_method, compact by default', () => {
  it(`answers every operation of the installed plugins within ${COMPACT_DESCRIPTION_BUDGET} bytes, naming every parameter`, async () => {
    const plugins = await loadPlugins(undefined, silentLogger);
    const over: string[] = [];
    let count = 0;
    for (const plugin of plugins) {
      for (const operation of plugin.operations) {
        const { text, isError } = await describeText({ service: plugin.service, method: operation.name });
        expect(isError, `${plugin.service}.${operation.name}`).toBe(false);
        count += 1;
        const bytes = Buffer.byteLength(text);
        if (bytes > COMPACT_DESCRIPTION_BUDGET) over.push(`${plugin.service}.${operation.name}: ${bytes} bytes`);
        const described = JSON.parse(text) as { params: Record<string, string> };
        const declared = Object.keys((operation.params.properties ?? {}) as object);
        expect(Object.keys(described.params).sort(), `${plugin.service}.${operation.name}`).toEqual(declared.sort());
      }
    }
    expect(count).toBeGreaterThanOrEqual(500);
    expect(over).toEqual([]);
  });

  it('says per parameter its type, whether it is required, its allowed values and an example', async () => {
    const { text } = await describeText({ service: 'clio', method: 'list_matters' });
    const described = JSON.parse(text) as { writes: boolean; access: string; params: Record<string, string>; example: unknown };
    expect(described).toMatchObject({ access: 'read', writes: false });
    expect(described.params.status).toMatch(/^string, one of: open, closed, pending/);
    expect(described.params.limit).toContain('a whole number from 1 to 200');
    const created = JSON.parse((await describeText({ service: 'lawmatics', method: 'create_prospect' })).text) as {
      writes: boolean;
      params: Record<string, string>;
      rules: string[];
    };
    expect(created.writes).toBe(true);
    expect(created.params.first_name).toContain('e.g. "Luis"');
    expect(created.rules).toContain('not both contact_id and match_contact_by');
    const message = JSON.parse((await describeText({ service: 'slack', method: 'send_message' })).text) as {
      params: Record<string, string>;
    };
    expect(message.params.channel).toMatch(/^string, required/);
  });

  it('gives the JSON Schemas with detail "full", and refuses any other detail', async () => {
    const compact = await describeText({ service: 'clio', method: 'list_matters' });
    const full = await describeText({ service: 'clio', method: 'list_matters', detail: 'full' });
    const schema = JSON.parse(full.text) as { params: { type: string; properties: Record<string, { enum?: string[] }> } };
    expect(schema.params.type).toBe('object');
    expect(schema.params.properties.status?.enum).toEqual(['open', 'closed', 'pending']);
    expect(Buffer.byteLength(full.text)).toBeGreaterThan(Buffer.byteLength(compact.text));
    const wrong = await describeText({ service: 'clio', method: 'list_matters', detail: 'everything' });
    expect(wrong.isError).toBe(true);
    expect(JSON.parse(wrong.text)).toMatchObject({ error: true, code: 'bad_request' });
  });
});

describe('describe_method without method: browsing a service', () => {
  it('lists a service’s families, then a family’s operations one line each, within the budget', async () => {
    for (const service of ['clio', 'quickbooks', 'lawmatics', 'notion', 'slack', 'callrail']) {
      const { text, isError } = await describeText({ service });
      expect(isError, service).toBe(false);
      expect(Buffer.byteLength(text), service).toBeLessThanOrEqual(COMPACT_DESCRIPTION_BUDGET);
      const { families } = JSON.parse(text) as { families: Record<string, number> };
      for (const family of Object.keys(families)) {
        const listed = await describeText({ service, family });
        expect(listed.isError, `${service} ${family}`).toBe(false);
        expect(Buffer.byteLength(listed.text), `${service} ${family}`).toBeLessThanOrEqual(COMPACT_DESCRIPTION_BUDGET);
        const { operations } = JSON.parse(listed.text) as { operations: Record<string, string> };
        expect(Object.keys(operations), `${service} ${family}`).toHaveLength(families[family] as number);
      }
    }
    const slack = JSON.parse((await describeText({ service: 'slack' })).text) as { families: Record<string, number> };
    expect(slack.families).toMatchObject({ channel: 5, reaction: 3, pin: 3 });
    const matters = JSON.parse((await describeText({ service: 'clio', family: 'matters' })).text) as {
      operations: Record<string, string>;
    };
    expect(Object.keys(matters.operations)).toEqual(expect.arrayContaining(['list_matters', 'get_matter', 'create_matter']));
    const unknown = await describeText({ service: 'clio', family: 'spaceships' });
    expect(unknown.isError).toBe(true);
    expect(JSON.parse(unknown.text)).toMatchObject({ code: 'not_found' });
  });
});
