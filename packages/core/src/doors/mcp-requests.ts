import { type AnySchema, type SchemaOutput, safeParse } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { type JSONRPCErrorResponse, type JSONRPCRequest, ErrorCode as RpcErrorCode } from '@modelcontextprotocol/sdk/types.js';

// How an MCP request that does not fit its method's schema is answered (the Server in mcp.ts and the HTTP fast path).

const MAX_ISSUES = 3;
const MAX_PATH_KEY = 40;
const MAX_ISSUE_TEXT = 120;

/**
 * The one mapping from an MCP request that does not fit its method's schema to a JSON-RPC error: -32602 Invalid
 * params, `Invalid {method} request: {path}: {problem}` for at most three problems. Never the validator's dump of
 * issues (a JSON array, as long as the request is wide), never a stack; keys from the request are shortened. Used by
 * the Server above and by the HTTP endpoint's `tools/call` fast path, so that both answer alike.
 */
export function parseRequest<S extends AnySchema>(
  schema: S,
  request: JSONRPCRequest,
): { success: true; data: SchemaOutput<S> } | { success: false; error: JSONRPCErrorResponse['error'] } {
  const parsed = safeParse(schema, request);
  if (parsed.success) return { success: true, data: parsed.data as SchemaOutput<S> };
  const issues = (parsed.error as { issues?: Array<{ path?: PropertyKey[]; message?: string }> }).issues ?? [];
  const named = issues.slice(0, MAX_ISSUES).map((issue) => {
    const text = (issue.message ?? 'invalid').replace(/^Invalid input: /, '').slice(0, MAX_ISSUE_TEXT);
    const path = issuePath(issue.path ?? []);
    return path ? `${path}: ${text}` : text;
  });
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  const problems = named.length > 0 ? named.join('; ') : 'does not match the schema';
  const method = request.method.slice(0, MAX_PATH_KEY);
  return { success: false, error: { code: RpcErrorCode.InvalidParams, message: `Invalid ${method} request: ${problems}${more}` } };
}

function issuePath(path: PropertyKey[]): string {
  return path
    .map((key, i) => {
      if (typeof key === 'number') return `[${key}]`;
      const name = String(key);
      if (/^[A-Za-z_$][\w$]*$/.test(name) && name.length <= MAX_PATH_KEY) return i === 0 ? name : `.${name}`;
      return `[${JSON.stringify(name.slice(0, MAX_PATH_KEY))}]`;
    })
    .join('');
}
