import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  McpError,
  ErrorCode as RpcErrorCode,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { describeOperation } from './describe.js';
import type { Engine, Principal } from './engine.js';
import { errorBody, GatewayError, toGatewayError } from './errors.js';
import type { RegisteredIntegration } from './registry.js';

export interface McpServerOptions {
  name?: string;
  version?: string;
}

const CALL_PREFIX = 'call_';

/**
 * The MCP surface for one authenticated caller: `describe_method` plus one `call_{service}` per integration the
 * caller may use over MCP and that is connected. Built on the SDK's low-level Server so that tools carry the JSON
 * Schemas TypeBox produces. Protocol problems (unknown tool, arguments not of the tool's shape) are JSON-RPC errors;
 * anything that fails while running a tool is a result with `isError: true` carrying the gateway's error body.
 */
export function createMcpServer(engine: Engine, principal: Principal, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'portico', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: false } },
      instructions:
        'Portico exposes business applications. Each call_<service> tool runs one operation of that service: call describe_method first to learn the parameters of an operation, then call call_<service> with { method, params }.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const integrations = await engine.visibleIntegrations(principal, 'mcp');
    return { tools: [describeTool(integrations), ...integrations.map(callTool)] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    if (name === 'describe_method') return runDescribe(engine, principal, args);
    if (name.startsWith(CALL_PREFIX) && engine.registry.get(name.slice(CALL_PREFIX.length))) {
      return runCall(engine, principal, name.slice(CALL_PREFIX.length), args);
    }
    throw new McpError(RpcErrorCode.InvalidParams, `Unknown tool: ${name}`);
  });

  return server;
}

function describeTool(integrations: RegisteredIntegration[]): Tool {
  return {
    name: 'describe_method',
    title: 'Describe an operation',
    description:
      'Returns how to call one operation of a connected service: what it does, its HTTP method and path, the JSON Schema of its params, the response schema when known, and a ready-to-use example call. Use it before calling an operation for the first time.',
    inputSchema: {
      type: 'object',
      properties: {
        service: {
          type: 'string',
          enum: integrations.map((i) => i.service),
          description: 'Service key, e.g. the part after call_ in a tool name',
        },
        method: { type: 'string', description: 'Operation name, as listed in the enum of the call_<service> tool' },
      },
      required: ['service', 'method'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

function callTool(integration: RegisteredIntegration): Tool {
  const { plugin, service } = integration;
  const operations = [...integration.operations.values()];
  const writes = operations.some((op) => op.access !== 'read');
  return {
    name: `${CALL_PREFIX}${service}`,
    title: `Call ${plugin.displayName}`,
    description: `${plugin.description} Runs one of ${operations.length} ${plugin.displayName} operations: set method to the operation name and params to its parameters by name (path, query and body alike). Call describe_method with service "${service}" to learn an operation's parameters.`,
    inputSchema: {
      type: 'object',
      properties: {
        method: { type: 'string', enum: [...integration.operationNames], description: 'Operation name' },
        params: { type: 'object', description: 'The operation parameters by name', additionalProperties: true },
      },
      required: ['method'],
      additionalProperties: false,
    },
    annotations: {
      readOnlyHint: !writes,
      destructiveHint: operations.some((op) => op.access === 'delete'),
      idempotentHint: false,
      openWorldHint: true,
    },
  };
}

function invalidArguments(message: string): McpError {
  return new McpError(RpcErrorCode.InvalidParams, message);
}

async function runDescribe(engine: Engine, principal: Principal, args: Record<string, unknown>): Promise<CallToolResult> {
  const { service, method } = args;
  if (typeof service !== 'string' || typeof method !== 'string') {
    throw invalidArguments('describe_method takes { service: string, method: string }');
  }
  try {
    const integration = await engine.authorize(principal, service, 'mcp');
    const operation = integration.operations.get(method);
    if (!operation) throw new GatewayError('not_found', `${service} has no operation "${method}"`);
    return success(describeOperation(integration, operation));
  } catch (error) {
    return failure(error);
  }
}

async function runCall(engine: Engine, principal: Principal, service: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const { method, params } = args;
  const integration = engine.registry.get(service) as RegisteredIntegration;
  if (typeof method !== 'string' || !integration.operations.has(method)) {
    throw invalidArguments(
      `call_${service} needs method set to one of its operations (see the tool's enum); got ${JSON.stringify(method)}`,
    );
  }
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
    throw invalidArguments(`call_${service}: params must be an object`);
  }
  try {
    const result = await engine.invoke({
      principal,
      protocol: 'mcp',
      service,
      operation: method,
      params: (params ?? {}) as Record<string, unknown>,
    });
    return success(result.body);
  } catch (error) {
    return failure(error);
  }
}

function success(body: unknown): CallToolResult {
  const structured =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : { result: body ?? null };
  return { content: [{ type: 'text', text: JSON.stringify(body ?? null) }], structuredContent: structured };
}

function failure(error: unknown): CallToolResult {
  const body = errorBody(toGatewayError(error));
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: { ...body } };
}
