import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';

/** One call of a load: its number (its answer carries it), and the connection it went on. */
export interface Call {
  n: number;
  startedAt: number;
  endedAt?: number;
  /** The client's local port of the connection the call went on, once connected. */
  port?: number;
  outcome?: string;
}

/** A JSON-RPC `tools/call` of the example plugin's `operation` through `call_example`, with `_meta` when given. */
export function toolCall(id: number, operation: string, params: Record<string, unknown>, meta?: Record<string, string>): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'call_example', arguments: { method: operation, params }, ...(meta ? { _meta: meta } : {}) },
  });
}

export interface Exchange {
  /** 'ok' when answered 200 (and `expected` holds for the body), else what went wrong: `status N` or the error code. */
  outcome: string;
  body: string;
}

/** Past this a call counts as hung (a connection nobody answers nor closes). */
const HUNG_MS = 6_000;

/**
 * One request with the API key; an MCP call when `body` is given (POST /api/mcp). `call.port` is set once it has a
 * connection. `agent` false: a connection of its own.
 */
export function exchange(
  base: string,
  key: string,
  agent: Agent | false,
  call: Call,
  request: { path: string; body?: string; expected?: (body: string) => boolean },
): Promise<Exchange> {
  const mcp = request.body !== undefined;
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (mcp) Object.assign(headers, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
  return new Promise((resolve) => {
    const sent = httpRequest(`${base}${request.path}`, { method: mcp ? 'POST' : 'GET', agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) return resolve({ outcome: `status ${response.statusCode}`, body });
        resolve({ outcome: (request.expected?.(body) ?? true) ? 'ok' : `wrong answer ${body.slice(0, 200)}`, body });
      });
      response.on('error', (error: Error) => resolve({ outcome: `error ${error.message}`, body }));
    });
    sent.on('socket', (socket) => {
      if (socket.localPort !== undefined && !socket.connecting) call.port = socket.localPort;
      else socket.once('connect', () => (call.port = socket.localPort));
    });
    sent.setTimeout(HUNG_MS, () => sent.destroy(new Error('hung')));
    sent.on('error', (error: NodeJS.ErrnoException) => resolve({ outcome: error.code ?? error.message, body: '' }));
    sent.end(request.body);
  });
}

/** The text of an MCP tool result's first content block, parsed as JSON. */
export function toolResult(body: string): unknown {
  const text = (JSON.parse(body) as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text;
  return JSON.parse(text ?? 'null');
}

/**
 * Steady reads of the example plugin's `list_items` (its upstream answers `{ limit }`): `concurrency` calls at a time
 * on kept-alive connections, each started when the last of its loop ended, until stopped. MCP `tools/call` POSTs, or
 * REST GETs.
 */
export class Load {
  readonly done: Call[] = [];
  readonly active = new Set<Call>();
  private running = true;
  private readonly loops: Array<Promise<void>>;
  private next = 0;

  constructor(base: string, key: string, mcp: boolean, concurrency: number) {
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    this.loops = Array.from({ length: concurrency }, async () => {
      while (this.running) {
        const n = (this.next++ % 100) + 1;
        const call: Call = { n, startedAt: performance.now() };
        this.active.add(call);
        const { outcome } = await exchange(
          base,
          key,
          agent,
          call,
          mcp
            ? {
                path: '/api/mcp',
                body: toolCall(n, 'list_items', { limit: n }),
                expected: (body) => (toolResult(body) as { limit?: number })?.limit === n,
              }
            : { path: `/api/v1/example/items?limit=${n}`, expected: (body) => (JSON.parse(body) as { limit?: number }).limit === n },
        );
        call.outcome = outcome;
        call.endedAt = performance.now();
        this.active.delete(call);
        this.done.push(call);
      }
    });
    void Promise.all(this.loops).finally(() => agent.destroy());
  }

  async stop(): Promise<Call[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.done;
  }
}

/** The remote ports of the TCP connections process `pid` holds on its local port `port` (read from /proc). */
export function connectionsOf(pid: number, port: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      if (socket) inodes.add(socket);
    } catch {
      // closed meanwhile
    }
  }
  const portOf = (address: string) => Number.parseInt(address.split(':').pop() as string, 16);
  const remote = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || !inodes.has(fields[9] as string)) continue;
      if (portOf(fields[1] as string) === port) remote.add(portOf(fields[2] as string));
    }
  }
  return remote;
}
