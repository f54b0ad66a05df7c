import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type AnyObjectSchema,
  type AnySchema,
  getLiteralValue,
  getObjectShape,
  type SchemaOutput,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
  ListToolsRequestSchema,
  McpError,
  type Notification,
  type Request,
  type Result,
  ErrorCode as RpcErrorCode,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import type { GatewayError } from '../errors.js';
import type { Engine, Principal } from '../pipeline/engine.js';
import type { TraceContext } from '../upstream/trace-context.js';
import { jsonSchema } from './describe.js';
import {
  CALL_PREFIX,
  CONNECTIONS_TOOL,
  EVENTS_TOOL,
  invokeTool,
  type McpCaller,
  runCall,
  runConnections,
  runDescribe,
  runEvents,
  runSearch,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  usableBy,
} from './mcp-calls.js';
import { parseRequest } from './mcp-requests.js';
import { DEFAULT_MCP_RESULT_BUDGET } from './result-budget.js';

/**
 * - `compact` (default): `describe_method`, `search_methods` and one `call_{service}` per integration. The tool list
 *   stays small however many operations there are.
 * - `operations`: one tool per operation, `{service}_{operation}`, with its own input schema, output schema and
 *   annotations. For small deployments and clients that work best with many narrow tools.
 */
export type McpToolMode = 'compact' | 'operations';

export interface McpServerOptions {
  name?: string;
  version?: string;
  mode?: McpToolMode;
  /** Largest tool result in bytes before it is shortened (see result-budget.ts); DEFAULT_MCP_RESULT_BUDGET if unset. */
  resultBudget?: number;
  /** The caller's address (the socket's, or the one a trusted proxy forwarded), kept in the audit record of each call. */
  clientAddress?: string | null;
  /** The trace of the HTTP request the calls answer (W3C Trace Context); default: the current one, if any. */
  trace?: TraceContext | undefined;
  /** Told of a call refused for want of an OAuth scope, so that the HTTP door can answer with a step-up (McpCaller). */
  stepUp?: ((refusal: GatewayError) => void) | undefined;
}

/**
 * One validator for every per-request Server: the SDK otherwise builds a fresh Ajv instance for each Server, which
 * the benchmark profile showed to be the largest single cost of an MCP request.
 */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** Above this many operations, call_{service} names its operations in the description of search/describe instead
 * of an enum, so that tools/list stays small with large integrations (the server still checks the name). */
export const METHOD_ENUM_LIMIT = 60;

/**
 * The MCP surface for one authenticated caller. Tools exist only for integrations the caller may use over MCP and
 * that are connected; a read-only key sees only operations that read. Built on the SDK's low-level Server so that
 * tools carry the JSON Schemas TypeBox produces. Protocol problems (unknown tool, a request not of tools/call's shape)
 * are JSON-RPC errors; every mistake inside a tool call (an unknown operation, bad arguments) and anything that fails
 * while running a tool is a result with `isError: true` carrying the gateway's error body, which the model reads.
 */
export function createMcpServer(engine: Engine, principal: Principal, options: McpServerOptions = {}): Server {
  const mode = options.mode ?? 'compact';
  const server = new PorticoServer(
    { name: options.name ?? 'portico', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: false } },
      jsonSchemaValidator: SHARED_VALIDATOR,
      instructions:
        mode === 'compact'
          ? 'Portico exposes business applications. To find an operation, call search_methods with what you want to do; call describe_method to learn its parameters; then call call_<service> with { method, params }.'
          : 'Portico exposes business applications: each tool is one operation of one application, named <service>_<operation>.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const integrations = await engine.visibleIntegrations(principal, 'mcp');
    const usable = usableBy(principal, await engine.allowedOperations(principal));
    if (mode === 'operations') {
      return { tools: integrations.flatMap((i) => [...i.operations.values()].filter(usable).map((op) => operationTool(i, op))) };
    }
    return {
      tools: [describeTool(integrations), searchTool(), CONNECTIONS_TOOL, EVENTS_TOOL, ...integrations.map((i) => callTool(i, usable))],
    };
  });

  const runTool = mcpToolCaller(engine, principal, options);
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => runTool(request.params));

  return server;
}

/** Per Server, the schema each handled method's requests are parsed with (recorded as its handlers are set). */
const requestSchemas = new WeakMap<Server, Map<string, AnySchema>>();

/**
 * The SDK Server, except that a request whose params do not fit its method's schema is answered -32602 Invalid params
 * naming the problem (see parseRequest), on every transport. The SDK would answer -32603 Internal error with the
 * validator's JSON dump of issues as the message: it parses inside the handler it stores, where a parse failure is
 * just an error without a JSON-RPC code. The schemas are recorded as the handlers are set (the SDK sets those of
 * `initialize` and `ping` in its constructors, hence a WeakMap rather than a field), and requests are checked as they
 * arrive from the transport, before the SDK sees them.
 */
class PorticoServer extends Server {
  override setRequestHandler<T extends AnyObjectSchema>(
    requestSchema: T,
    handler: (
      request: SchemaOutput<T>,
      extra: RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>,
    ) => ServerResult | Result | Promise<ServerResult | Result>,
  ): void {
    const method = getLiteralValue(getObjectShape(requestSchema)?.method as AnySchema);
    if (typeof method === 'string') {
      const schemas = requestSchemas.get(this) ?? new Map<string, AnySchema>();
      requestSchemas.set(this, schemas);
      schemas.set(method, requestSchema);
    }
    super.setRequestHandler(requestSchema, handler);
  }

  override async connect(transport: Transport): Promise<void> {
    await super.connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const schema = isJSONRPCRequest(message) ? requestSchemas.get(this)?.get(message.method) : undefined;
      const parsed = schema && parseRequest(schema, message as JSONRPCRequest);
      if (!parsed || parsed.success) return deliver?.(message, extra);
      const answer: JSONRPCErrorResponse = { jsonrpc: '2.0', id: (message as JSONRPCRequest).id, error: parsed.error };
      transport.send(answer).catch((failure: Error) => this.onerror?.(failure));
    };
  }
}

/** What a `tools/call` request carries: the tool's name, its arguments and the request's `_meta`. */
export interface McpToolCall {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Record<string, unknown> | undefined;
}

/**
 * The `_meta` member of a `tools/call` that carries the caller's idempotency key (as REST's `Idempotency-Key`): where
 * the application honours one, the call sent again with the same key does its work once (upstream/idempotency.ts).
 */
export const IDEMPOTENCY_META = 'portico/idempotency-key';

/**
 * Runs the tools of one caller's MCP surface: the `tools/call` handler of `createMcpServer`, also usable without a
 * Server (the stateless HTTP endpoint answers single tool calls with it directly; see answerMcpPost). Unknown tools
 * throw an McpError (a JSON-RPC error); mistakes in a tool's arguments and failures while running it are results
 * with `isError: true`.
 */
export function mcpToolCaller(
  engine: Engine,
  principal: Principal,
  options: McpServerOptions = {},
): (call: McpToolCall) => Promise<CallToolResult> {
  const mode = options.mode ?? 'compact';
  const budget = options.resultBudget ?? DEFAULT_MCP_RESULT_BUDGET;
  const caller: McpCaller = { clientAddress: options.clientAddress ?? null, trace: options.trace };
  if (options.stepUp) caller.stepUp = options.stepUp;
  const run = async (name: string, args: Record<string, unknown>, caller: McpCaller): Promise<CallToolResult> => {
    if (mode === 'compact') {
      if (name === 'describe_method') return runDescribe(engine, principal, args);
      if (name === 'search_methods') return runSearch(engine, principal, args);
      if (name === CONNECTIONS_TOOL.name) return runConnections(engine, principal);
      if (name === EVENTS_TOOL.name) return runEvents(engine, principal, args);
      const service = name.startsWith(CALL_PREFIX) ? name.slice(CALL_PREFIX.length) : '';
      if (engine.registry.get(service)) return runCall(engine, principal, service, args, budget, caller);
    } else {
      const target = operationForTool(engine, name);
      if (target) {
        const typed = Boolean(engine.registry.operation(target.service, target.operation)?.definition.response);
        return invokeTool(engine, principal, target.service, target.operation, args, budget, typed, caller);
      }
    }
    throw invalidArguments(`Unknown tool: ${name}`);
  };
  return ({ name, arguments: given, _meta: meta }) => {
    const args = (given ?? {}) as Record<string, unknown>;
    // checked by the pipeline, as REST's header is: a key that is not one is a 400 result
    const key = meta?.[IDEMPOTENCY_META];
    return run(name, args, key === undefined ? caller : { ...caller, idempotencyKey: key as string });
  };
}

function searchTool(): Tool {
  return {
    name: 'search_methods',
    title: 'Find operations',
    description:
      'Finds the operations that fit a task, across every service you can call, best first: give a short description of what you want to do (e.g. "post a message in a Slack channel", "calls missed last week"). Returns service, method and summary of each; then call describe_method for the one you pick.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 500, description: 'What you want to do, in a few words' },
        service: { type: 'string', description: 'Only search this service' },
        limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: SEARCH_LIMIT_DEFAULT, description: 'How many results' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

function describeTool(integrations: RegisteredIntegration[]): Tool {
  return {
    name: 'describe_method',
    title: 'Describe an operation',
    description:
      'How to call an operation: what it does, if it writes, its params, an example. Without method: the families of operations; with family: its operations.',
    inputSchema: {
      type: 'object',
      properties: {
        service: {
          type: 'string',
          enum: integrations.map((i) => i.service),
          description: 'Service key: the part after call_ in a tool name',
        },
        method: { type: 'string', description: 'Operation name' },
        family: { type: 'string' },
        detail: { type: 'string', enum: ['compact', 'full'], description: 'full: with JSON Schemas' },
      },
      required: ['service'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

function callTool(integration: RegisteredIntegration, usable: (op: RegisteredOperation) => boolean): Tool {
  const { plugin, service } = integration;
  const operations = [...integration.operations.values()].filter(usable);
  return {
    name: `${CALL_PREFIX}${service}`,
    title: `Call ${plugin.displayName}`,
    description: `${plugin.description} Runs one of its ${operations.length} operations (method) with its params; see describe_method.`,
    inputSchema: {
      type: 'object',
      properties: {
        method:
          operations.length <= METHOD_ENUM_LIMIT
            ? { type: 'string', enum: operations.map((op) => op.name), description: 'Operation name' }
            : {
                type: 'string',
                pattern: '^[a-z][a-z0-9_]*$',
                description: `One of ${operations.length}: search_methods finds it`,
              },
        // No additionalProperties: JSON Schema allows any property by default, and tools/list stays smaller.
        params: { type: 'object', description: 'Its parameters by name' },
      },
      required: ['method'],
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: operations.every((op) => op.access === 'read'),
      destructiveHint: operations.some((op) => op.access === 'delete'),
      idempotentHint: false,
      openWorldHint: true,
    },
  };
}

function operationTool(integration: RegisteredIntegration, operation: RegisteredOperation): Tool {
  const { definition } = operation;
  const output = definition.response ? jsonSchema(definition.response) : undefined;
  return {
    name: `${integration.service}_${operation.name}`,
    title: `${integration.plugin.displayName}: ${definition.summary}`,
    description: definition.description,
    inputSchema: jsonSchema(definition.params) as Tool['inputSchema'],
    // Only object schemas can describe structuredContent (MCP requires an object there).
    ...(output && output.type === 'object' ? { outputSchema: output as Tool['outputSchema'] } : {}),
    annotations: {
      readOnlyHint: operation.access === 'read',
      destructiveHint: operation.access === 'delete',
      idempotentHint: definition.method === 'GET' || definition.method === 'PUT' || definition.method === 'DELETE',
      openWorldHint: true,
    },
  };
}

function operationForTool(engine: Engine, name: string): { service: string; operation: string } | undefined {
  for (const integration of engine.registry.list()) {
    const prefix = `${integration.service}_`;
    if (name.startsWith(prefix) && integration.operations.has(name.slice(prefix.length))) {
      return { service: integration.service, operation: name.slice(prefix.length) };
    }
  }
  return undefined;
}

/** -32602 with the message as given: McpError would prefix "MCP error -32602: ", and clients add that themselves. */
function invalidArguments(message: string): McpError {
  return Object.assign(new McpError(RpcErrorCode.InvalidParams, ''), { message });
}

export { parseRequest } from './mcp-requests.js';
