import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { answerMcpPost, MCP_POST_TIMEOUT_MS, type McpHttpRequest, pendingMcpPosts } from './mcp-http.js';

const headers = { accept: 'application/json, text/event-stream', contentType: 'application/json', protocolVersion: undefined };
const request = (body: unknown): McpHttpRequest => ({ ...headers, body });
const never = <T>() => new Promise<T>(() => {});

/** A Server whose tools/list never answers (an upstream that hangs past every budget); closes counted. */
function hangingServer(closed: { count: number }): () => Server {
  return () => {
    const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => never());
    server.onclose = () => {
      closed.count++;
    };
    return server;
  };
}

describe('every MCP POST is answered within its time bound', () => {
  it('defaults to a minute, above the default upstream budget of 30 s', () => {
    expect(MCP_POST_TIMEOUT_MS).toBe(60_000);
  });

  it('answers a request that never completes with -32001, next to the answers that came, and closes its Server', async () => {
    const closed = { count: 0 };
    const started = Date.now();
    const answer = await answerMcpPost(
      hangingServer(closed),
      request([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]),
      undefined,
      { timeoutMs: 100 },
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(answer).toEqual({
      status: 200,
      body: [
        { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Request timed out: no answer within 0.1 s' } },
        { jsonrpc: '2.0', id: 2, result: {} },
      ],
    });
    expect(closed.count).toBe(1);
    expect(pendingMcpPosts()).toBe(0);
  });

  it('bounds a lone tools/call (answered without a Server) alike', async () => {
    const answer = await answerMcpPost(
      () => {
        throw new Error('no Server for a lone tools/call');
      },
      request({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'slow' } }),
      () => never(),
      { timeoutMs: 50 },
    );
    expect(answer.body).toEqual({
      jsonrpc: '2.0',
      id: 'c',
      error: { code: -32001, message: 'Request timed out: no answer within 0.05 s' },
    });
    expect(pendingMcpPosts()).toBe(0);
  });

  it('is no longer pending when its Server fails to connect', async () => {
    const closed = { count: 0 };
    const failing = () => {
      const server = hangingServer(closed)();
      server.connect = async () => {
        throw new Error('transport refused');
      };
      return server;
    };
    await expect(answerMcpPost(failing, request({ jsonrpc: '2.0', id: 1, method: 'ping' }))).rejects.toThrow('transport refused');
    expect(pendingMcpPosts()).toBe(0);
  });

  it('counts a POST as pending only while it is being answered', async () => {
    const closed = { count: 0 };
    const answering = answerMcpPost(hangingServer(closed), request({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), undefined, {
      timeoutMs: 50,
    });
    expect(pendingMcpPosts()).toBe(1);
    await answering;
    expect(pendingMcpPosts()).toBe(0);
  });
});

describe('a lone tools/call of the plainest shape (checked by hand, answered as JSON once)', () => {
  const noServer = () => {
    throw new Error('no Server for a lone tools/call');
  };
  const result = { content: [{ type: 'text' as const, text: '{"a":"\\"b\\""}' }], structuredContent: { a: '"b"' } };

  it('answers with the JSON of its body, and the tool receives exactly the call', async () => {
    const seen: unknown[] = [];
    const answer = await answerMcpPost(
      noServer,
      request({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'call_x', arguments: { method: 'm' }, other: 1 } }),
      async (call) => {
        seen.push(call);
        return result;
      },
    );
    expect(seen).toEqual([{ name: 'call_x', arguments: { method: 'm' } }]);
    expect(answer.body).toEqual({ jsonrpc: '2.0', id: 7, result });
    expect(answer.json).toBe(JSON.stringify(answer.body));
  });

  it('answers a thrown error as a JSON-RPC error, and holds the MCP-Protocol-Version rule', async () => {
    const message = { jsonrpc: '2.0', id: 'e', method: 'tools/call', params: { name: 'nope' } };
    const thrown = await answerMcpPost(noServer, request(message), async () => {
      throw Object.assign(new Error('Unknown tool: nope'), { code: -32602 });
    });
    expect(thrown).toEqual({ status: 200, body: { jsonrpc: '2.0', id: 'e', error: { code: -32602, message: 'Unknown tool: nope' } } });
    const old = await answerMcpPost(noServer, { ...request(message), protocolVersion: '1999-01-01' }, async () => result);
    expect(old.status).toBe(400);
  });

  it('leaves every other shape to the SDK schemas, valid or not', async () => {
    const calls: unknown[] = [];
    const callTool = async (call: unknown) => {
      calls.push(call);
      return result;
    };
    const params = { name: 'call_x', arguments: { method: 'm' } };
    const valid = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...params, _meta: { progressToken: 1 } } },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'call_x', arguments: JSON.parse('{"__proto__":{"x":1},"method":"m"}') },
      },
    ];
    for (const message of valid) {
      const answer = await answerMcpPost(noServer, request(message), callTool);
      expect(answer.body).toEqual({ jsonrpc: '2.0', id: message.id, result });
      expect(answer.json).toBeUndefined();
    }
    expect(calls).toEqual([{ ...params, _meta: { progressToken: 1 } }, params]); // _meta travels with the call (its idempotency key)
    const invalid = [
      { jsonrpc: '2.0', id: 2 ** 53, method: 'tools/call', params },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params, extra: 1 },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'call_x', arguments: ['m'] } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 5 } },
      { jsonrpc: '2.0', id: 6, method: 'tools/call' },
    ];
    for (const message of invalid) {
      const answer = await answerMcpPost(noServer, request(message), callTool);
      expect(answer.json, JSON.stringify(message)).toBeUndefined();
      expect(JSON.stringify(answer.body), JSON.stringify(message)).toMatch(/"code":-32(700|602)/);
    }
    expect(calls).toHaveLength(2);
  });
});
