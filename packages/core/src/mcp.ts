// `@portico/core/mcp`: the MCP door (JSON-RPC over Streamable HTTP, the tools, the legacy SSE transport). It is an entry
// of its own so that importing `@portico/core` does not load the MCP SDK with zod and Ajv (about 250 files, a quarter
// of core's import): a gateway imports this with its first MCP request. The types are exported by `@portico/core` too.
export {
  createMcpServer,
  IDEMPOTENCY_META,
  type McpServerOptions,
  type McpToolCall,
  type McpToolMode,
  METHOD_ENUM_LIMIT,
  mcpToolCaller,
} from './doors/mcp.js';
export {
  answerMcpPost,
  type LegacySseTransport,
  MCP_POST_TIMEOUT_MS,
  type McpHttpAnswer,
  type McpHttpOptions,
  type McpHttpRequest,
  openLegacySseTransport,
  pendingMcpPosts,
} from './doors/mcp-http.js';
