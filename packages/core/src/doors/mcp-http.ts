import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { type McpToolCall, parseRequest } from './mcp.js';
import { toolResultJson } from './mcp-calls.js';

export interface McpHttpRequest {
  accept: string | undefined;
  contentType: string | undefined;
  protocolVersion: string | undefined;
  /** The parsed JSON body (a message or a batch). */
  body: unknown;
}

export interface McpHttpAnswer {
  status: number;
  /** JSON to send; undefined for 202. */
  body?: unknown;
  /** `body` already serialised, when the answer was written as JSON as it was built: send this text as it is. */
  json?: string;
}

const MAX_BATCH = 100;
const rpcError = (status: number, code: number, message: string): McpHttpAnswer => ({
  status,
  body: { jsonrpc: '2.0', error: { code, message }, id: null },
});

/**
 * The latest a POST is answered. A request still unanswered then is answered -32001 "Request timed out" (the rest of
 * its batch as usual) and its Server is closed. Above the upstream budget (30 s by default), so that a slow upstream
 * gives its own mapped error first.
 */
export const MCP_POST_TIMEOUT_MS = 60_000;

export interface McpHttpOptions {
  /** The latest a POST is answered, in milliseconds (default MCP_POST_TIMEOUT_MS). */
  timeoutMs?: number;
}

let pending = 0;
/** POSTs being answered right now: each holds a Server, a transport and its answers until it is answered. */
export const pendingMcpPosts = (): number => pending;

/**
 * Stateless Streamable HTTP with JSON responses, answered straight from parsed JSON. The SDK's transport turns each
 * Node request into a Web `Request` and back, which the benchmark profile showed costing about 100 µs per call; a
 * stateless, JSON-only endpoint needs none of that. The HTTP rules are the specification's, as the SDK applies
 * them: Accept must list application/json and text/event-stream (406), the body must be JSON (415), batches hold at
 * most 100 messages, an unsupported MCP-Protocol-Version header is 400, and a POST of only notifications or
 * responses is 202 with no body. Besides, request ids must be unique within a batch (400, -32600: answers could not
 * be told apart), a request cancelled by a `notifications/cancelled` of the same batch is not run and not answered
 * (MCP: no response for a cancelled request), and every POST is answered within `timeoutMs`.
 * The protocol itself (initialize, version negotiation, tools) stays the SDK Server's,
 * with one exception: a POST of one plain `tools/call` request, the hot path of every MCP client, is answered by
 * `callTool` directly when given, with the SDK's request validation and its error mapping, and without building a
 * Server, a transport and their per-request abort controllers (the benchmark profile showed those costing more than a
 * REST call's whole framing). `server` may be a function, so that a Server is only built when one is needed.
 * The commonest such request, of the plainest shape (see plainToolCall), is checked by hand instead of by the SDK's
 * schemas, and its answer comes with its JSON (`json`), written once.
 */
export async function answerMcpPost(
  server: Server | (() => Server),
  request: McpHttpRequest,
  callTool?: (call: McpToolCall) => Promise<CallToolResult>,
  options: McpHttpOptions = {},
): Promise<McpHttpAnswer> {
  if (!request.accept?.includes('application/json') || !request.accept.includes('text/event-stream')) {
    return rpcError(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
  }
  if (!request.contentType || !/^application\/json\s*(;|$)/i.test(request.contentType)) {
    return rpcError(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const raw = request.body;
  const plain = callTool ? plainToolCall(raw) : undefined;
  if (plain && callTool) {
    // The fast path: a lone tools/call of the plainest shape, checked by hand (see plainToolCall), with the
    // MCP-Protocol-Version rule of every non-initialize POST.
    if (request.protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(request.protocolVersion)) {
      return unsupportedVersion(request.protocolVersion);
    }
    const timeoutMs = options.timeoutMs ?? MCP_POST_TIMEOUT_MS;
    pending++;
    try {
      return await withDeadline(answerPlainToolCall(plain, callTool), timeoutMs, () => ({
        status: 200,
        body: timedOut(plain.id, timeoutMs),
      }));
    } finally {
      pending--;
    }
  }
  // JSON-RPC 2.0: an empty array is an invalid request, answered with one error (not a 202 with nothing)
  if (Array.isArray(raw) && raw.length === 0) return rpcError(400, -32600, 'Invalid Request: an empty batch');
  if (Array.isArray(raw) && raw.length > MAX_BATCH)
    return rpcError(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
  let messages: JSONRPCMessage[];
  try {
    messages = (Array.isArray(raw) ? raw : [raw]).map((m) => JSONRPCMessageSchema.parse(m));
  } catch {
    return rpcError(400, -32700, 'Parse error: Invalid JSON-RPC message');
  }
  const initializing = messages.some(isInitializeRequest);
  if (initializing && messages.length > 1) return rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
  if (!initializing && request.protocolVersion !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(request.protocolVersion)) {
    return unsupportedVersion(request.protocolVersion);
  }
  const requests = messages.length > 1 ? messages.filter(isJSONRPCRequest) : [];
  if (new Set(requests.map((m) => m.id)).size !== requests.length) {
    return rpcError(400, -32600, 'Invalid Request: request ids must be unique within a batch');
  }

  pending++;
  try {
    return await answerMessages(server, messages, Array.isArray(raw), options.timeoutMs ?? MCP_POST_TIMEOUT_MS, callTool);
  } finally {
    pending--;
  }
}

async function answerMessages(
  server: Server | (() => Server),
  messages: JSONRPCMessage[],
  batch: boolean,
  timeoutMs: number,
  callTool?: (call: McpToolCall) => Promise<CallToolResult>,
): Promise<McpHttpAnswer> {
  const only = messages.length === 1 && !batch ? messages[0] : undefined;
  if (callTool && only && isJSONRPCRequest(only) && only.method === 'tools/call' && !hasTask(only)) {
    const answer = await withDeadline(answerToolCall(only, callTool), timeoutMs, () => timedOut(only.id, timeoutMs));
    return { status: 200, body: answer };
  }

  // A request cancelled in its own batch is never run, and gets no answer (the cancellation is then a no-op).
  const cancelled = new Set(messages.filter(isCancellation).map((m) => m.params?.requestId));
  const delivered = messages.filter((m) => !(isJSONRPCRequest(m) && cancelled.has(m.id)));
  const requestIds = delivered.filter(isJSONRPCRequest).map((m) => m.id);
  const transport = new OneShotTransport(requestIds);
  const instance = typeof server === 'function' ? server() : server;
  try {
    await instance.connect(transport);
    for (const message of delivered) transport.onmessage?.(message);
    if (requestIds.length === 0) return { status: 202 };
    await withDeadline(transport.done, timeoutMs, () => undefined);
    const responses = requestIds.map((id) => transport.answer(id) ?? timedOut(id, timeoutMs));
    // A batch (even of one) is answered with an array, a single message with a single answer (JSON-RPC 2.0, section 6).
    return { status: 200, body: batch ? responses : responses[0] };
  } finally {
    await instance.close();
  }
}

const unsupportedVersion = (version: string): McpHttpAnswer =>
  rpcError(
    400,
    -32000,
    `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
  );

/** `work`, or `late()` once `timeoutMs` has passed without it; the timer never outlives the race. */
async function withDeadline<T>(work: Promise<T>, timeoutMs: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), timeoutMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

const timedOut = (id: RequestId, timeoutMs: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  error: { code: ErrorCode.RequestTimeout, message: `Request timed out: no answer within ${timeoutMs / 1000} s` },
});

const isCancellation = (message: JSONRPCMessage): message is JSONRPCNotification & { params?: { requestId?: unknown } } =>
  'method' in message && message.method === 'notifications/cancelled' && !('id' in message);

/** Task-augmented calls (`params.task`) take the SDK's path, which knows what to do with them. */
const hasTask = (message: JSONRPCRequest): boolean => Boolean((message.params as { task?: unknown } | undefined)?.task);

/** A lone `tools/call` request of the plainest shape: its id and the call it carries. */
interface PlainToolCall {
  id: RequestId;
  call: McpToolCall;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The message, when it is one `tools/call` request that the SDK's schemas (JSONRPCMessageSchema, then
 * CallToolRequestSchema) would accept as it is: only the members jsonrpc "2.0", id (a string or a safe integer),
 * method and params; params an object with a string name, arguments absent or an object, and neither `_meta` nor
 * `task`. Checked by hand in a few property reads, where the schemas cost several parses (and an error object for
 * each union member that does not match). Anything else, valid or not, returns undefined and takes the general path,
 * which keeps every answer the SDK's: a subset of what it accepts, read the same way, never more.
 */
function plainToolCall(message: unknown): PlainToolCall | undefined {
  if (!isObject(message) || message.method !== 'tools/call' || message.jsonrpc !== '2.0') return undefined;
  for (const key in message) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return undefined;
  }
  const { id, params } = message;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (!isObject(params) || typeof params.name !== 'string' || params._meta !== undefined || params.task !== undefined) return undefined;
  const args = params.arguments;
  if (args === undefined) return { id: id as RequestId, call: { name: params.name } };
  // The schema copies arguments into a new object, where a "__proto__" member would not survive as one: leave that
  // rare case to it, so that both paths see the same arguments.
  if (!isObject(args) || Object.hasOwn(args, '__proto__')) return undefined;
  return { id: id as RequestId, call: { name: params.name, arguments: args } };
}

/** A plain tool call's answer, written as JSON once: the tool result's own JSON (toolResultJson) in the envelope. */
async function answerPlainToolCall(
  { id, call }: PlainToolCall,
  callTool: (call: McpToolCall) => Promise<CallToolResult>,
): Promise<McpHttpAnswer> {
  let result: CallToolResult;
  try {
    result = await callTool(call);
  } catch (error) {
    return { status: 200, body: thrownAnswer(id, error) };
  }
  const body: JSONRPCMessage = { jsonrpc: '2.0', id, result };
  return { status: 200, body, json: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${toolResultJson(result)}}` };
}

/**
 * One `tools/call` answered as the SDK Server answers it: the request checked against CallToolRequestSchema (the
 * same -32602 as the Server's, from parseRequest), and a thrown error turned into a JSON-RPC error with its code,
 * message and data.
 */
async function answerToolCall(message: JSONRPCRequest, callTool: (call: McpToolCall) => Promise<CallToolResult>): Promise<JSONRPCMessage> {
  try {
    const parsed = parseRequest(CallToolRequestSchema, message);
    if (!parsed.success) return { jsonrpc: '2.0', id: message.id, error: parsed.error };
    const { name, arguments: args, _meta: meta } = parsed.data.params;
    const result = await callTool({
      name,
      ...(args === undefined ? {} : { arguments: args }),
      ...(meta === undefined ? {} : { _meta: meta }),
    });
    return { jsonrpc: '2.0', id: message.id, result };
  } catch (error) {
    return thrownAnswer(message.id, error);
  }
}

/** A thrown error as the SDK Server answers it: a JSON-RPC error with its code (else -32603), message and data. */
function thrownAnswer(id: RequestId, error: unknown): JSONRPCMessage {
  const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError,
      message: message ?? 'Internal error',
      ...(data === undefined ? {} : { data }),
    },
  };
}

/**
 * Carries one HTTP request's messages into the Server and collects its answers. `done` settles once every request id
 * (unique: answerMcpPost refuses repeated ones) has its answer; a second answer to one id replaces the first.
 */
class OneShotTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly done: Promise<void>;
  private readonly answers = new Map<RequestId, JSONRPCMessage>();
  private readonly ids: Set<RequestId>;
  private finish: () => void = () => {};

  constructor(ids: RequestId[]) {
    this.ids = new Set(ids);
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
  }

  answer(id: RequestId): JSONRPCMessage | undefined {
    return this.answers.get(id);
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers to this request's ids go back; server-initiated messages have nowhere to go without a stream.
    if (!('id' in message) || ('method' in message && message.method)) return;
    const id = message.id as RequestId;
    if (!this.ids.has(id)) return;
    this.answers.set(id, message);
    if (this.answers.size === this.ids.size) this.finish();
  }

  async close(): Promise<void> {
    this.finish();
    this.onclose?.();
  }
}

/** The server side of the legacy HTTP+SSE transport (protocol revision 2024-11-05). */
export type LegacySseTransport = SSEServerTransport;

/**
 * Opens a legacy HTTP+SSE transport on `res`, naming `endpoint` as the message endpoint. The SDK's SSE module is
 * loaded on first use: a gateway that does not enable the legacy transport never loads it.
 */
export async function openLegacySseTransport(endpoint: string, res: ServerResponse): Promise<LegacySseTransport> {
  const { SSEServerTransport } = await import('@modelcontextprotocol/sdk/server/sse.js');
  return new SSEServerTransport(endpoint, res);
}
