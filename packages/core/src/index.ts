export type { CreatedKey, Principal } from './api-keys.js';
export { connectionAad, REFRESH_MARGIN_MS, type ReencryptionReport } from './connections/credentials.js';
export type { OAuthCompletion, OAuthStart } from './connections/oauth-flow.js';
export { type EncryptionKey, Encryptor, generateEncryptionKey, parseEncryptionKey } from './crypto.js';
export { describeOperation, exampleParams, jsonSchema, type OperationDescription } from './describe.js';
export {
  EGRESS_REFUSED,
  type EgressOptions,
  EgressPolicy,
  egressHostsProblem,
  METADATA_ADDRESSES,
  METADATA_HOSTNAMES,
  parseEgressAllowance,
} from './egress.js';
export { Engine, type EngineOptions } from './engine.js';
export {
  codeForUpstreamStatus,
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  errorBody,
  GatewayError,
  isGatewayError,
  toGatewayError,
} from './errors.js';
export {
  assertInput,
  FORBIDDEN_KEYS,
  INPUT_LIMITS,
  type InputLimits,
  inputProblem,
  jsonTextProblem,
  pathSegmentProblem,
} from './input-limits.js';
export type { InvokeRequest, InvokeResult, Protocol } from './invoke.js';
export { API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from './keys.js';
export { type Logger, silentLogger } from './logger.js';
export {
  createMcpServer,
  type McpServerOptions,
  type McpToolCall,
  type McpToolMode,
  METHOD_ENUM_LIMIT,
  mcpToolCaller,
} from './mcp.js';
export {
  answerMcpPost,
  type LegacySseTransport,
  MCP_POST_TIMEOUT_MS,
  type McpHttpAnswer,
  type McpHttpOptions,
  type McpHttpRequest,
  openLegacySseTransport,
  pendingMcpPosts,
} from './mcp-http.js';
export { InvalidGrantError, type OAuthClient, type OAuthClientConfig } from './oauth.js';
export type { AuditDetail, EngineObserver, UpstreamObservation } from './observer.js';
export { buildOpenApiDocument, type OpenApiOptions } from './openapi.js';
export {
  type Access,
  accessOf,
  type DeclarativeUpstream,
  defineOperation,
  fillPath,
  type HttpMethod,
  type OperationContext,
  type OperationDefinition,
  openApiPath,
  type ParamLocation,
  pathTokens,
  type QueryValue,
  type RunContext,
  type SecurityRequirement,
  type UpstreamRequest,
  type UpstreamResponse,
} from './operation.js';
export {
  CONTRACT_VERSION,
  type Credentials,
  definePlugin,
  isPlugin,
  type OAuth2Settings,
  type OpenApiSettings,
  type Plugin,
  type PluginDefinition,
  packageVersion,
  type SandboxModule,
  type SandboxOptions,
  type SandboxServer,
  SUPPORTED_CONTRACT_VERSIONS,
  type TokenSet,
  type UpstreamFailure,
  type UpstreamSettings,
} from './plugin.js';
export { leaseChunk, type RateLimitOptions } from './rate-limit.js';
export {
  type RegisteredIntegration,
  type RegisteredOperation,
  Registry,
  RegistryError,
  type RouteMatch,
  type RouteMiss,
} from './registry.js';
export { queryString, queryValues, type RestCall, type RestInvocation, restCallFor, restInvocation } from './rest.js';
export {
  atLeastOne,
  atMostOne,
  BooleanString,
  COMMA_LIST,
  CommaList,
  DateString,
  DateTimeString,
  EXPECTS,
  FreeObject,
  IntegerString,
  integerRangePattern,
  type ParamRule,
  Params,
  requires,
  ruleSentences,
  type Static,
  StringEnum,
  type TObject,
  type TSchema,
  Type,
  together,
} from './schema.js';
export { OperationIndex, type SearchHit } from './search.js';
export type { IntegrationState } from './settings.js';
export { MIGRATIONS, type Migration } from './store/migrations.js';
export { openStore, PostgresStore, type PostgresStoreOptions, type StoreChange, type StoreChangeListener } from './store/open.js';
export type { SessionRecord, SessionTable } from './store/sessions.js';
export { SqliteStore } from './store/sqlite.js';
export {
  type ApiKeyRecord,
  type AuditEntry,
  type AuditPage,
  type AuditPruneLimits,
  type AuditPruneResult,
  type AuditQuery,
  type AuditRecord,
  type AuditSeriesPoint,
  type AuditSeriesQuery,
  type AuditStatusClass,
  type ConnectionRecord,
  type ConnectionStatus,
  DEFAULT_WORKSPACE,
  type IntegrationSettingsRecord,
  type KeyScopes,
  type Store,
  type ToolSetRecord,
  type ToolSetRule,
  type Workspace,
  type WorkspaceUsage,
} from './store/types.js';
export {
  AllowedOperations,
  type ResolvedToolSet,
  resolveRules,
  TOOL_SET_ID,
  TOOL_SET_RULE,
  type ToolSetInput,
  ToolSets,
} from './tool-sets.js';
export { DEFAULT_UPSTREAM_OPTIONS, type UpstreamClientOptions } from './upstream/client.js';
export { buildDeclarative } from './upstream/declarative.js';
export {
  DEFAULT_UPSTREAM_LIMIT_OPTIONS,
  NO_UPSTREAM_LIMITS,
  parseUpstreamLimits,
  type UpstreamLimitOptions,
  type UpstreamLimits,
  upstreamLimitsProblem,
} from './upstream/limits.js';
export {
  capMessage,
  looksLikeHtml,
  MAX_UPSTREAM_MESSAGE,
  readUpstreamFailure,
  retryAfterFromHeaders,
  type UpstreamErrorOptions,
  upstreamErrorMessage,
  upstreamInspector,
} from './upstream-errors.js';
export {
  type CompiledParams,
  coerceParams,
  compileParams,
  MAX_LISTED_PROBLEMS,
  problemList,
  queryParams,
} from './validation.js';
export { describeUsage, WORKSPACE_ID, type WorkspaceSummary, Workspaces } from './workspaces.js';
