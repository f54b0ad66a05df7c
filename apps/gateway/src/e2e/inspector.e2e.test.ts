import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../gateway.test-support.js';

const run = promisify(execFile);
// The Inspector's own CLI (the package's bin), run as a separate process exactly as the README shows it.
const inspector = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'cli/build/cli.js');

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ sandbox: true, env: { PORTICO_PLUGINS: 'notes,chat' } });
});
afterAll(() => gateway?.close());

async function inspect(...args: string[]): Promise<unknown> {
  const { stdout } = await run(
    process.execPath,
    [inspector, '--cli', `${gateway.url}/api/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${gateway.key}`, ...args],
    { timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

describe('the MCP Inspector CLI against a running gateway', () => {
  it('lists the tools', async () => {
    const listed = (await inspect('--method', 'tools/list')) as { tools: Array<{ name: string }> };
    expect(listed.tools.map((t) => t.name)).toEqual([
      'describe_method',
      'search_methods',
      'list_connections',
      'list_events',
      'call_notion',
      'call_slack',
    ]);
  });

  it('describes and calls an operation', async () => {
    const described = (await inspect(
      '--method',
      'tools/call',
      '--tool-name',
      'describe_method',
      '--tool-arg',
      'service=slack',
      '--tool-arg',
      'method=list_channels',
    )) as {
      structuredContent: { http: { path: string } };
    };
    expect(described.structuredContent.http.path).toBe('/api/v1/slack/channels');
    const called = (await inspect('--method', 'tools/call', '--tool-name', 'call_slack', '--tool-arg', 'method=list_users')) as {
      isError?: boolean;
      structuredContent: { ok: boolean; members: unknown[] };
    };
    expect(called.isError).toBeFalsy();
    expect(called.structuredContent.ok).toBe(true);
    expect(called.structuredContent.members.length).toBeGreaterThan(0);
  });
});
