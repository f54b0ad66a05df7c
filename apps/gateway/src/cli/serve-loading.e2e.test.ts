import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, listening, MULTI_PROCESS_TIMEOUT, runPortico, stop } from '../e2e/cluster.test-support.js';
import { moduleLog } from '../e2e/module-log.test-support.js';

/**
 * What `portico serve` loads before it answers, on the built CLI: the MCP SDK and typebox's compiler are imported by
 * the first MCP request and the first call that validates, not at start-up (docs/adr/0014-unbundled-packages.md).
 * A module-resolution hook (module-log.test-support.ts) records every URL the gateway's process resolves.
 */
const dir = mkdtempSync(join(tmpdir(), 'portico-serve-loading-'));
const log = moduleLog(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MCP_SDK = '/@modelcontextprotocol/sdk/';
const COMPILER = '/typebox/build/compile/';
const loaded = () => log.modules('gateway').split('\n').filter(Boolean);
const count = (part: string) => loaded().filter((url) => url.includes(part)).length;

describe('portico serve: what loads on first use', { timeout: MULTI_PROCESS_TIMEOUT }, () => {
  it("answers /healthz without the MCP SDK or typebox's compiler; the first MCP request loads one, the first validated call the other", async () => {
    if (!existsSync(bin)) throw new Error('this test runs the built gateway: run `pnpm build` first');
    const gateway = runPortico(['serve', '--port', '0'], {
      PORTICO_DATA_DIR: mkdtempSync(join(dir, 'data-')),
      PORTICO_LOG_LEVEL: 'warn',
      ...log.env('gateway'),
    });
    try {
      const url = await listening(gateway);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const key = /^\s+(portico_\S+)$/m.exec(gateway.output())?.[1] as string;
      expect(key).toBeDefined();
      // the hook sees the gateway's own modules, so a missing line is not a hook that saw nothing
      expect(count('/@portico/core/dist/index.js') + count('/packages/core/dist/index.js')).toBeGreaterThan(0);
      expect(count('/typebox/build/')).toBeGreaterThan(0); // the type builder, which the plugins' schemas need
      expect(count(MCP_SDK)).toBe(0);
      expect(count(COMPILER)).toBe(0);
      const mcp = (body: object) =>
        fetch(`${url}/api/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
        }).then(async (response) => ({ status: response.status, body: await response.json() }));
      const listed = await mcp({ method: 'tools/list' });
      expect(listed.status).toBe(200);
      expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('describe_method');
      expect(count(MCP_SDK)).toBeGreaterThan(0);
      expect(count(COMPILER)).toBe(0);
      const refused = await mcp({
        method: 'tools/call',
        params: { name: 'call_notion', arguments: { method: 'list_users', params: { page_size: 'many' } } },
      });
      expect(refused.body.result.isError).toBe(true);
      expect(refused.body.result.content[0].text, JSON.stringify(refused.body)).toContain('params.page_size');
      expect(count(COMPILER)).toBeGreaterThan(0);
    } finally {
      await stop(gateway);
    }
  });
});
