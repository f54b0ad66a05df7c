import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { principalNoun } from '../access/api-keys.js';
import type { AllowedOperations } from '../access/tool-sets.js';
import type { RegisteredIntegration, RegisteredOperation } from '../contract/registry.js';
import { errorBody, GatewayError, toGatewayError } from '../errors.js';
import type { Engine, Principal } from '../pipeline/engine.js';
import type { InvokeRequest } from '../pipeline/pipeline.js';
import { mayWrite } from '../store/scopes.js';
import { connectionsOverview } from './connections-overview.js';
import { describeOperation, jsonSchema } from './describe.js';
import { browseFamily, browseService } from './describe-browse.js';
import { describeCompact } from './describe-compact.js';
import { EVENTS_LIMIT_MAX, eventsFeed } from './events-feed.js';
import { type BudgetHints, fitToBudget } from './result-budget.js';
import { closestOperations, readOnlyReason } from './suggest.js';

/** Who calls a tool: the address kept in each call's audit record, and the trace its upstream requests carry. */
export type McpCaller = Pick<InvokeRequest, 'clientAddress' | 'trace' | 'idempotencyKey'> & {
  /**
   * Told of a tool call refused for want of an OAuth scope (an error with `requiredScope`): the HTTP door then answers
   * 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`, as the MCP authorization
   * specification's step-up describes, instead of the tool result. Only OAuth grants' tokens carry such refusals.
   */
  stepUp?: (refusal: GatewayError) => void;
};

/**
 * What the compact tools do once called: search_methods, describe_method and call_{service}. Every mistake in their
 * arguments and everything that fails while they run is a result with `isError: true` and the gateway's error body
 * (the model reads it and corrects its call); a successful answer is kept within the result budget.
 */

export const CALL_PREFIX = 'call_';
export const SEARCH_LIMIT_DEFAULT = 5;
export const SEARCH_LIMIT_MAX = 25;

/** The connections overview: few words, since every byte of it is in every tools/list (under 8 KB in all). */
export const CONNECTIONS_TOOL: Tool = {
  name: 'list_connections',
  description: 'The services you may use: connected or not, account, token health.',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
};

export async function runConnections(engine: Engine, principal: Principal): Promise<CallToolResult> {
  try {
    return success(await connectionsOverview(engine, principal));
  } catch (error) {
    return failure(error);
  }
}

/** Recent events received from the applications; as short as list_connections, for the same reason. */
export const EVENTS_TOOL: Tool = {
  name: 'list_events',
  description: 'Events the apps sent (calls, messages…), oldest first; pass next_cursor as since for newer.',
  inputSchema: {
    type: 'object',
    properties: {
      since: { type: 'string' },
      service: { type: 'string' },
      type: { type: 'string', description: 'e.g. call.completed' },
      limit: { type: 'integer', minimum: 1, maximum: EVENTS_LIMIT_MAX },
    },
  },
  annotations: { readOnlyHint: true },
};

export async function runEvents(engine: Engine, principal: Principal, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    return success(await eventsFeed(engine, principal, args));
  } catch (error) {
    return failure(error);
  }
}

/** Which operations a caller may use: a read-only key only those that read, a key with a tool set only the set's. */
export function usableBy(principal: Principal, allowed: AllowedOperations | undefined): (operation: RegisteredOperation) => boolean {
  return (operation) =>
    (operation.access === 'read' || mayWrite(principal.scopes, operation.service)) &&
    (!allowed || allowed.has(operation.service, operation.name));
}

export async function runSearch(engine: Engine, principal: Principal, args: Record<string, unknown>): Promise<CallToolResult> {
  const { query, service, limit } = args;
  try {
    if (typeof query !== 'string' || query.trim() === '' || query.length > 500) {
      throw new GatewayError(
        'bad_request',
        'search_methods takes { query: string (1-500 characters), service?: string, limit?: integer }: query says what you want to do, in a few words',
      );
    }
    if (service !== undefined && typeof service !== 'string')
      throw new GatewayError('bad_request', 'search_methods: service must be a string');
    if (limit !== undefined && (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > SEARCH_LIMIT_MAX)) {
      throw new GatewayError('bad_request', `search_methods: limit must be an integer from 1 to ${SEARCH_LIMIT_MAX}`);
    }
    const visible = new Set((await engine.visibleIntegrations(principal, 'mcp')).map((i) => i.service));
    const usable = usableBy(principal, await engine.allowedOperations(principal));
    const results = engine.operationIndex.search(query, {
      limit: (limit as number | undefined) ?? SEARCH_LIMIT_DEFAULT,
      filter: ({ service: s, operation }) => visible.has(s) && (service === undefined || s === service) && usable(operation),
    });
    return success({ query, results: results.map((hit) => ({ ...hit, tool: `${CALL_PREFIX}${hit.service}` })) });
  } catch (error) {
    return failure(error);
  }
}

export async function runDescribe(engine: Engine, principal: Principal, args: Record<string, unknown>): Promise<CallToolResult> {
  const { service, method, detail, family } = args;
  try {
    if (typeof service !== 'string' || (method !== undefined && typeof method !== 'string')) {
      throw new GatewayError(
        'bad_request',
        'describe_method takes { service: string, method?: string, family?: string, detail?: "compact" | "full" }: the service key (the part after call_ in a tool name) and the operation name; without method, the service\'s families, or a family\'s operations',
      );
    }
    if (family !== undefined && typeof family !== 'string')
      throw new GatewayError('bad_request', 'describe_method: family must be a string');
    if (method === undefined) return success(await browse(engine, principal, service, family));
    if (detail !== undefined && detail !== 'compact' && detail !== 'full') {
      throw new GatewayError('bad_request', 'describe_method: detail must be "compact" (the default) or "full" (the JSON Schemas)');
    }
    const integration = await engine.authorize(principal, service, 'mcp');
    const operation = integration.operations.get(method);
    if (!operation) throw new GatewayError('not_found', await unknownOperationMessage(engine, principal, integration, method));
    const allowed = await engine.allowedOperations(principal);
    if (allowed && !allowed.has(service, method)) {
      throw new GatewayError(
        'forbidden',
        `${principalNoun(principal)}'s tool set (${principal.scopes.toolSet}) does not include ${service}:${method}`,
      );
    }
    // as search_methods and the tool list: a read-only key is not shown what it may not call
    if (operation.access !== 'read' && !mayWrite(principal.scopes, service)) {
      throw new GatewayError(
        'forbidden',
        `${principalNoun(principal)} ${principal.scopes.readOnly ? 'is read-only' : `may not write to ${service}`}; ${service}:${method} is not a read operation`,
      );
    }
    return success(detail === 'full' ? describeOperation(integration, operation) : describeCompact(integration, operation));
  } catch (error) {
    return failure(error);
  }
}

/** A service's families, or one family's operations: only those the caller may use. */
async function browse(engine: Engine, principal: Principal, service: string, family: string | undefined) {
  const integration = await engine.authorize(principal, service, 'mcp');
  const usable = usableBy(principal, await engine.allowedOperations(principal));
  const operations = [...integration.operations.values()].filter(usable);
  return family === undefined ? browseService(integration, operations) : browseFamily(integration, operations, family);
}

export async function runCall(
  engine: Engine,
  principal: Principal,
  service: string,
  args: Record<string, unknown>,
  budget: number,
  /** The caller's address (kept in the call's audit record) and its request's trace. */
  caller: McpCaller = {},
): Promise<CallToolResult> {
  const { method, params } = args;
  const integration = engine.registry.get(service) as RegisteredIntegration;
  try {
    if (typeof method !== 'string' || method === '') {
      throw new GatewayError(
        'bad_request',
        `call_${service} needs method: the name of one of its operations (find it with search_methods, service "${service}"), and params: its parameters by name`,
      );
    }
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) {
      throw new GatewayError(
        'bad_request',
        `call_${service}: params must be an object of the operation's parameters by name, e.g. {"method": ${echo(method)}, "params": {}}`,
      );
    }
  } catch (error) {
    return failure(error);
  }
  if (!integration.operations.has(method)) return unknownOperation(engine, principal, integration, method, caller);
  const given = (params ?? {}) as Record<string, unknown>;
  return invokeTool(engine, principal, service, method, given, budget, false, caller);
}

/**
 * A name that is none of the service's operations: refused by the pipeline (the key's access is checked first and the
 * refusal is audited like any other), and answered with the closest operations the key may use.
 */
async function unknownOperation(
  engine: Engine,
  principal: Principal,
  integration: RegisteredIntegration,
  method: string,
  caller: McpCaller,
): Promise<CallToolResult> {
  try {
    const { service } = integration;
    await engine.invoke({ principal, protocol: 'mcp', service, operation: method, params: {}, ...caller });
    throw new GatewayError('internal_error', 'Internal error');
  } catch (error) {
    const refusal = toGatewayError(error);
    if (refusal.code !== 'not_found') return failure(refusal, false, caller);
    return failure(new GatewayError('not_found', await unknownOperationMessage(engine, principal, integration, method)));
  }
}

async function unknownOperationMessage(
  engine: Engine,
  principal: Principal,
  integration: RegisteredIntegration,
  method: string,
): Promise<string> {
  const { service } = integration;
  const usable = usableBy(principal, await engine.allowedOperations(principal));
  const operations = [...integration.operations.values()];
  const next = `Next: describe_method with service "${service}" and one of these as method shows its parameters; search_methods with what you want to do finds others.`;
  const readOnly = readOnlyReason(operations, method);
  if (readOnly !== undefined) {
    // Nothing of the kind can be written: say so, and offer what can be read instead.
    const reads = closestOperations(
      operations.filter((op) => op.access === 'read' && usable(op)),
      method,
    );
    const named = reads.map((op) => `${op.name} (${op.definition.summary})`).join(', ');
    const why =
      readOnly.scope === 'integration'
        ? `${integration.plugin.displayName} is read-only here: ${service} has no operation ${echo(method)}, nor any other that creates, changes or deletes anything.`
        : `${service} has no operation ${echo(method)}: its ${readOnly.noun} operations only read (${readOnly.reads.map((op) => op.name).join(', ')}), none creates, changes or deletes a ${readOnly.noun}.`;
    return `${why} ${reads.length > 0 ? `What can be read instead: ${named}. ` : ''}${next}`;
  }
  const closest = closestOperations(operations.filter(usable), method);
  const named = closest.map((op) => `${op.name} (${op.definition.summary})`).join(', ');
  return `${service} has no operation ${echo(method)}. ${closest.length > 0 ? `Closest: ${named}. ` : ''}${next}`;
}

export async function invokeTool(
  engine: Engine,
  principal: Principal,
  service: string,
  operation: string,
  params: Record<string, unknown>,
  budget: number,
  /** The tool declares an output schema: an error body must not be sent as structured content it would fail. */
  typed = false,
  /** The caller's address (kept in the call's audit record) and its request's trace. */
  caller: McpCaller = {},
): Promise<CallToolResult> {
  try {
    const result = await engine.invoke({
      principal,
      protocol: 'mcp',
      service,
      operation,
      params,
      clientAddress: caller.clientAddress,
      trace: caller.trace,
      idempotencyKey: caller.idempotencyKey,
    });
    // Serialized once: the text block is this JSON, and its size decides whether the answer must be shortened.
    const text = JSON.stringify(result.body ?? null);
    // At most 3 bytes of UTF-8 per UTF-16 unit: most answers are under the budget without counting their bytes.
    if (text.length * 3 <= budget || Buffer.byteLength(text) <= budget) return success(result.body, text);
    const registered = engine.registry.operation(service, operation);
    return success(fitToBudget(result.body, budget, registered ? budgetHints(registered) : {}).body);
  } catch (error) {
    return failure(error, typed, caller);
  }
}

/** The parameters a shortened answer's advice names: how to ask for fewer records, and for fewer fields. */
function budgetHints(operation: RegisteredOperation): BudgetHints {
  const properties = Object.keys((jsonSchema(operation.definition.params).properties ?? {}) as object);
  const pageSize = ['limit', 'page_size', 'per_page', 'max_results'].find((name) => properties.includes(name));
  const fields = ['fields', 'select'].find((name) => properties.includes(name));
  return { ...(pageSize ? { pageSize } : {}), ...(fields ? { fields } : {}) };
}

/** Each successful result's body as JSON (its text block), and whether structuredContent wraps it in `result`. */
const BODY_TEXT = new WeakMap<CallToolResult, { text: string; wrapped: boolean }>();

function success(body: unknown, text = JSON.stringify(body ?? null)): CallToolResult {
  const wrapped = typeof body !== 'object' || body === null || Array.isArray(body);
  const structured = wrapped ? { result: body ?? null } : (body as Record<string, unknown>);
  const result: CallToolResult = { content: [{ type: 'text', text }], structuredContent: structured };
  BODY_TEXT.set(result, { text, wrapped });
  return result;
}

/**
 * A tool result as JSON, the same text as `JSON.stringify(result)`. A successful result carries its body twice, as
 * the text block and as structuredContent; the body was serialised once for the text block, and that text is reused
 * for structuredContent instead of serialising the body a second time. Results are never changed once built.
 */
export function toolResultJson(result: CallToolResult): string {
  const known = BODY_TEXT.get(result);
  if (known === undefined) return JSON.stringify(result);
  const { text, wrapped } = known;
  const structured = wrapped ? `{"result":${text}}` : text;
  return `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${structured}}`;
}

function failure(error: unknown, typed = false, caller?: McpCaller): CallToolResult {
  const refusal = toGatewayError(error);
  // An OAuth token's call beyond its scopes: the door answers HTTP 403 with a step-up challenge instead (see McpCaller).
  if (refusal.requiredScope && caller?.stepUp) caller.stepUp(refusal);
  const body = errorBody(refusal);
  const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify(body) }];
  return typed ? { isError: true, content } : { isError: true, content, structuredContent: { ...body } };
}

/** A caller's text repeated in a message: quoted, and cut at 80 characters (a 2 MB name is not echoed back). */
function echo(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
