// What the load scenarios send: the paths a request can take (straight to the upstream, through a reference hop, or
// through one of the gateway's doors), the two operations, the requests of each path for each operation, and the
// probe that proves a scenario answers before it is measured.
import { send } from '../harness/client.mjs';

/** @typedef {'direct' | 'proxy' | 'got' | 'koa' | 'koa-tuned' | 'rest' | 'rest-toolset' | 'mcp' | 'rest-nodash' | 'mcp-nodash'} PathId */
/** @typedef {'GET' | 'POST'} OperationId */
/** @typedef {import('../harness/load.mjs').LoadRequest & { method: string, path: string }} ScenarioRequest */

/**
 * Every path, in the order the tables list them (and every other round measures them).
 * @type {PathId[]}
 */
export const PATHS = ['direct', 'proxy', 'got', 'koa', 'koa-tuned', 'rest', 'rest-toolset', 'mcp', 'rest-nodash', 'mcp-nodash'];
/** @type {OperationId[]} */
export const OPERATIONS = ['GET', 'POST'];

/** @type {Record<PathId, string>} */
export const PATH_LABEL = {
  direct: 'direct to upstream (no hop)',
  proxy: 'bare node:http proxy',
  got: 'node:http + got hop (reference)',
  koa: 'Koa + got hop (reference)',
  'koa-tuned': "Koa + got hop, got's cache options emptied as Portico's (reference)",
  rest: 'Portico REST',
  'rest-toolset': 'Portico REST, key bound to a tool set',
  mcp: 'Portico MCP tools/call',
  'rest-nodash': 'Portico REST, dashboard off',
  'mcp-nodash': 'Portico MCP tools/call, dashboard off',
};
/** @type {Record<OperationId, string>} */
export const OPERATION_LABEL = { GET: 'GET list_items (query params)', POST: 'POST create_item (JSON body)' };

const LIST_PARAMS = { limit: 5, status: 'open', tags: ['a', 'b'] };
const CREATE_PARAMS = { name: 'bench', notify: true };
const UPSTREAM_HEADERS = { authorization: 'Bearer bench-upstream-token', accept: 'application/json', 'x-api-version': '2024-01-01' };

/**
 * @param {string} method
 * @param {object} params
 */
function mcpBody(method, params) {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'call_example', arguments: { method, params } } });
}

/**
 * The request of a path for an operation: what the gateway sends upstream is what direct/proxy/got/koa send.
 * `keys` are the gateway's: `key` (every operation) and `toolSetKey` (bound to a tool set holding both operations).
 * @param {PathId} path
 * @param {OperationId} op
 * @param {{ key: string, toolSetKey?: string }} keys
 * @returns {ScenarioRequest}
 */
export function requestFor(path, op, keys) {
  if (path === 'rest-toolset') return requestFor('rest', op, { key: keys.toolSetKey ?? '' });
  // The same requests to a second gateway started with PORTICO_DASHBOARD=off (its own keys).
  if (path === 'rest-nodash') return requestFor('rest', op, keys);
  if (path === 'mcp-nodash') return requestFor('mcp', op, keys);
  if (path === 'koa-tuned') return requestFor('koa', op, keys);
  const auth = { authorization: `Bearer ${keys.key}` };
  const mcpHeaders = { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (path === 'rest') {
    return op === 'GET'
      ? { method: 'GET', path: '/api/v1/example/items?limit=5&status=open&tags=a&tags=b', headers: auth }
      : {
          method: 'POST',
          path: '/api/v1/example/items',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(CREATE_PARAMS),
        };
  }
  if (path === 'mcp') {
    return op === 'GET'
      ? { method: 'POST', path: '/api/mcp', headers: mcpHeaders, body: mcpBody('list_items', LIST_PARAMS) }
      : { method: 'POST', path: '/api/mcp', headers: mcpHeaders, body: mcpBody('create_item', CREATE_PARAMS) };
  }
  return op === 'GET'
    ? { method: 'GET', path: '/api/items?limit=5&status=open&tags=a&tags=b', headers: UPSTREAM_HEADERS }
    : {
        method: 'POST',
        path: '/api/items?notify=true',
        headers: { ...UPSTREAM_HEADERS, 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ name: 'bench' }),
      };
}

/**
 * One request before the load: the scenario must succeed (an MCP tool error would be a fast, wrong benchmark).
 * Resolves with the size of the answer.
 * @param {string} url
 * @param {ScenarioRequest} req
 */
export async function probe(url, req) {
  const r = await send(`${url}${req.path}`, req);
  if (r.status < 200 || r.status >= 300) throw new Error(`probe ${req.method} ${url}${req.path}: ${r.status} ${r.text.slice(0, 300)}`);
  if (req.path === '/api/mcp') {
    /** @type {{ result?: { isError?: boolean } }} */
    const parsed = JSON.parse(r.text);
    if (!parsed.result || parsed.result.isError) throw new Error(`probe MCP: ${r.text.slice(0, 300)}`);
  }
  return r.bytes;
}
