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
