// MCP discovery with every installed plugin connected: tools/list (latency and payload, per tool) and describe_method
// for every operation in turn, over one keep-alive client, one request at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { stopChild } from '../harness/children.mjs';
import { closeAgent, send } from '../harness/client.mjs';
import { memoryMiB } from '../harness/machine.mjs';
import { percentile } from '../harness/stats.mjs';
import { startServe } from './startup.mjs';

/**
 * The part of a tools/list entry this measures.
 * @typedef {{ name: string, inputSchema: { properties: { method?: { enum?: string[] } } } }} ListedTool
 */

/**
 * @param {string[]} installed the installed plugins (short names)
 * @param {{ plugins: { service: string, names: string[] }[] }} openapi every operation name, per service
 * @param {{ samples: number, logLevel: string }} settings
 */
export async function measureMcpDiscovery(installed, openapi, { samples, logLevel }) {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'portico-bench-mcp-'));
  const gateway = await startServe({ dataDir, plugins: installed.join(','), logLevel });
  try {
    // The banner with the first admin key goes to stderr (stdout is the JSON log alone).
    const key = /portico_[A-Za-z0-9]+/.exec(gateway.stderr())?.[0];
    if (!key) throw new Error(`no API key in the serve banner:\n${gateway.stderr()}`);
    const auth = { authorization: `Bearer ${key}` };
    /** @type {{ integrations: string[] }} */
    const { integrations } = JSON.parse((await send(`${gateway.url}/healthz`)).text);
    for (const service of integrations) {
      const r = await send(`${gateway.url}/api/admin/connections/${service}`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'bench-token' }),
      });
      if (r.status !== 200) throw new Error(`connecting ${service}: ${r.status} ${r.text}`);
    }
    /**
     * @param {number} id
     * @param {string} method
     * @param {object} [params]
     */
    const mcp = (id, method, params) =>
      send(`${gateway.url}/api/mcp`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }),
      });
    const firstList = await mcp(1, 'tools/list');
    /** @type {ListedTool[]} */
    const listed = JSON.parse(firstList.text).result.tools;
    const tools = listed.map((t) => {
      const methods = t.inputSchema.properties.method?.enum;
      return {
        name: t.name,
        operations: methods?.length ?? 0,
        bytes: Buffer.byteLength(JSON.stringify(t)),
        enumBytes: methods ? Buffer.byteLength(JSON.stringify(methods)) : 0,
      };
    });
    /** @type {number[]} */
    const listTimes = [];
    for (let i = 0; i < samples + 20; i++) {
      const r = await mcp(i + 2, 'tools/list');
      if (r.status !== 200) throw new Error(`tools/list: ${r.status}`);
      if (i >= 20) listTimes.push(r.ms);
    }
    // Every operation of every plugin (above 60 operations call_{service} lists no method enum, so take the names from
    // the registry).
    const ops = openapi.plugins.flatMap((p) => p.names.map((method) => ({ service: p.service, method })));
    /** @type {number[]} */
    const describeTimes = [];
    /** @type {number[]} */
    const describeBytes = [];
    for (let i = 0; i < samples + ops.length; i++) {
      const op = /** @type {{ service: string, method: string }} */ (ops[i % ops.length]);
      const r = await mcp(i + 1000, 'tools/call', { name: 'describe_method', arguments: op });
      /** @type {{ result?: { isError?: boolean } }} */
      const parsed = JSON.parse(r.text);
      if (r.status !== 200 || parsed.result?.isError)
        throw new Error(`describe_method ${op.service}.${op.method}: ${r.text.slice(0, 300)}`);
      if (i >= ops.length) {
        describeTimes.push(r.ms);
        describeBytes.push(r.bytes);
      }
    }
    const memory = memoryMiB(/** @type {number} */ (gateway.child.pid));
    closeAgent();
    listTimes.sort((a, b) => a - b);
    describeTimes.sort((a, b) => a - b);
    describeBytes.sort((a, b) => a - b);
    return {
      integrations,
      toolsList: {
        bytes: firstList.bytes,
        firstMs: firstList.ms,
        p50: percentile(listTimes, 0.5),
        p99: percentile(listTimes, 0.99),
        samples: listTimes.length,
        tools,
      },
      describe: {
        operations: ops.length,
        p50: percentile(describeTimes, 0.5),
        p99: percentile(describeTimes, 0.99),
        samples: describeTimes.length,
        medianBytes: percentile(describeBytes, 0.5),
        maxBytes: describeBytes.at(-1) ?? Number.NaN,
      },
      rssAfterCalls: memory,
    };
  } finally {
    await stopChild(gateway.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
