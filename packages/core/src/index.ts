export { type CreatedKey, type Principal, type PrincipalKind, principalNoun } from './access/api-keys.js';
export type { IntegrationState } from './access/integration-settings.js';
export { API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from './access/key-format.js';
export { type MemberInput, Members, memberPrincipal, memberScopes } from './access/members.js';
export {
  assertGrantWithin,
  assertKeyWithin,
  assertMayChangeService,
  assertMayEditToolSets,
  scopesWithin,
  serviceChangeProblem,
  widerThan,
} from './access/powers.js';
export {
  AllowedOperations,
  type ResolvedToolSet,
  resolveRules,
  TOOL_SET_ID,
  TOOL_SET_RULE,
  type ToolSetInput,
  ToolSets,
} from './access/tool-sets.js';
export { describeUsage, WORKSPACE_ID, type WorkspaceSummary, Workspaces } from './access/workspaces.js';
export type { AuthorizeCheck, AuthorizeRequest, Consent } from './authorization/authorize.js';
export type { ExternalIssuerOptions } from './authorization/external-issuer.js';
export type { ClientMetadataDocumentOptions } from './authorization/metadata-documents.js';
export type { AuthorizationOptions } from './authorization/options.js';
export { OAuthError as AuthorizationError } from './authorization/protocol.js';
export { grantScopes, requestedScopes, scopeString, stepUpScope, supportedScopes } from './authorization/scopes.js';
export { AUTHORIZATION_PATHS, AuthorizationServer, type ResourcePath } from './authorization/server.js';
export type { TokenResponse } from './authorization/tokens.js';
export { connectionAad, REFRESH_MARGIN_MS, type ReencryptionReport } from './connections/credentials.js';
export { type EncryptionKey, Encryptor, generateEncryptionKey, parseEncryptionKey } from './connections/crypto.js';
export { HEARTBEAT_MS, type KeyAgreement, type KeyAgreementView } from './connections/key-agreement.js';
export type { OAuthCompletion, OAuthStart } from './connections/oauth-flow.js';
export { InvalidGrantError, type OAuthClient, type OAuthClientConfig } from './connections/oauth-protocol.js';
export { egressHostsProblem } from './contract/egress-hosts.js';
export {
  assertInput,
  FORBIDDEN_KEYS,
  INPUT_LIMITS,
  type InputLimits,
  inputProblem,
  jsonTextProblem,
  pathSegmentProblem,
} from './contract/input-limits.js';
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
} from './contract/operation.js';
export {
  CONTRACT_VERSION,
  type ConnectionIdentity,
  type Credentials,
  definePlugin,
  type IdentifyClient,
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
} from './contract/plugin.js';
export {
  type RegisteredIntegration,
  type RegisteredOperation,
  Registry,
  RegistryError,
  type RouteMatch,
  type RouteMiss,
} from './contract/registry.js';
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
} from './contract/schema.js';
export { OperationIndex, type SearchHit } from './contract/search.js';
export { NO_UPSTREAM_LIMITS, parseUpstreamLimits, type UpstreamLimits, upstreamLimitsProblem } from './contract/upstream-limits.js';
export {
  type CompiledParams,
  coerceParams,
  compileParams,
  compilerReady,
  MAX_LISTED_PROBLEMS,
  problemList,
  queryParams,
} from './contract/validation.js';
export { type ConnectionOverview, connectionsOverview } from './doors/connections-overview.js';
export { describeOperation, exampleParams, jsonSchema, type OperationDescription } from './doors/describe.js';
// The MCP door's functions are in `@portico/core/mcp` (src/mcp.ts): the MCP SDK with zod and Ajv is about a quarter of
// core's import, and a gateway loads it with the first MCP request instead of at start-up. Its types stay here.
export type { McpServerOptions, McpToolCall, McpToolMode } from './doors/mcp.js';
export type { LegacySseTransport, McpHttpAnswer, McpHttpOptions, McpHttpRequest } from './doors/mcp-http.js';
export { buildOpenApiDocument, type OpenApiOptions } from './doors/openapi.js';
export { queryString, queryValues, type RestCall, type RestInvocation, restCallFor, restInvocation } from './doors/rest.js';
export { type BudgetHints, DEFAULT_MCP_RESULT_BUDGET, fitToBudget, type TruncationNote } from './doors/result-budget.js';
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
export { type Logger, silentLogger } from './logger.js';
export type { AuditSpoolOptions } from './pipeline/audit-spool.js';
export { Engine, type EngineOptions } from './pipeline/engine.js';
export type { AuditDetail, AuditTrailCounts, EngineObserver, UpstreamObservation } from './pipeline/observers.js';
export { type InvokeRequest, type InvokeResult, invokeResultJson, type Protocol } from './pipeline/pipeline.js';
export { leaseChunk, type RateLimitOptions } from './pipeline/rate-limit.js';
export type {
  AuthorizationCodeRecord,
  AuthorizationTables,
  GrantRecord,
  OAuthClientRecord,
  OAuthTokenRecord,
} from './store/authorization-types.js';
export { MEMBER_ROLES, type MemberNarrowing, type MemberRecord, type MemberRole } from './store/member-types.js';
export {
  type AppliedMigration,
  type MigrateMode,
  type MigrateOptions,
  type MigrationStatus,
  SchemaVersionError,
} from './store/migration-plan.js';
export { MIGRATIONS, type Migration } from './store/migrations.js';
export { openStore, PostgresStore, type PostgresStoreOptions, type StoreChange, type StoreChangeListener } from './store/open.js';
export type { ListenState } from './store/postgres-options.js';
export { type KeyScopes, mayWrite } from './store/scopes.js';
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
  type InstanceRecord,
  type InstanceTable,
  type IntegrationSettingsRecord,
  type SessionRecord,
  type SessionTable,
  type Store,
  type ToolSetRecord,
  type ToolSetRule,
  type Workspace,
  type WorkspaceUsage,
} from './store/types.js';
export { DEFAULT_UPSTREAM_OPTIONS, type UpstreamClientOptions } from './upstream/client.js';
export { buildDeclarative } from './upstream/declarative.js';
export {
  EGRESS_REFUSED,
  type EgressOptions,
  EgressPolicy,
  METADATA_ADDRESSES,
  METADATA_HOSTNAMES,
  parseEgressAllowance,
} from './upstream/egress.js';
export {
  capMessage,
  looksLikeHtml,
  MAX_UPSTREAM_MESSAGE,
  readUpstreamFailure,
  retryAfterFromHeaders,
  type UpstreamErrorOptions,
  upstreamErrorMessage,
  upstreamInspector,
} from './upstream/failures.js';
export { BrokeredUpstreamLimiter, type SlotBroker, type SlotRelease, type UpstreamSlots } from './upstream/limiter-port.js';
export { DEFAULT_UPSTREAM_LIMIT_OPTIONS, UpstreamLimiter, type UpstreamLimitOptions } from './upstream/limits.js';
export {
  hasQuotaLeases,
  type QuotaLeases,
  type SharedWindows,
  sharedWindows,
  type WindowTokens,
} from './upstream/shared-windows.js';
export { detectTracing, startServerSpan, tracingOn } from './upstream/spans.js';
export {
  currentTrace,
  formatTraceparent,
  parseTraceparent,
  runInTrace,
  type TraceContext,
  traceFromHeaders,
  validTracestate,
} from './upstream/trace-context.js';
export { parseWorkspaceHosts, WorkspaceBaseUrls, type WorkspaceHosts } from './upstream/workspace-base-urls.js';
