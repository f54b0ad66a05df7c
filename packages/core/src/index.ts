export type { Principal } from './access/api-keys.js';
export { type AttemptTicket, type AttemptWindows, MemoryAttemptWindows } from './access/attempts.js';
export type { IntegrationState } from './access/integration-settings.js';
export { generateApiKey, hashApiKey } from './access/key-format.js';
export { memberPrincipal } from './access/members.js';
export {
  assertGrantWithin,
  assertKeyWithin,
  assertMayChangeService,
  assertMayEditToolSets,
  assertMaySubscribe,
  scopesWithin,
  widerThan,
} from './access/powers.js';
export { type ResolvedToolSet, TOOL_SET_ID } from './access/tool-sets.js';
export { describeUsage } from './access/workspaces.js';
export type { AuthorizeRequest, Consent } from './authorization/authorize.js';
export type { ExternalIssuerOptions } from './authorization/external-issuer.js';
export { OAuthError as AuthorizationError } from './authorization/protocol.js';
export { grantScopes, requestedScopes, supportedScopes } from './authorization/scopes.js';
export { AUTHORIZATION_PATHS, AuthorizationServer, type ResourcePath } from './authorization/server.js';
export { connectionAad } from './connections/credentials.js';
export { type EncryptionKey, Encryptor, generateEncryptionKey, parseEncryptionKey } from './connections/crypto.js';
export type { ProbeCheck } from './connections/key-agreement.js';
export type { OAuthClientConfig } from './connections/oauth-protocol.js';
export { assertInput, INPUT_LIMITS, jsonTextProblem } from './contract/input-limits.js';
export type { HttpMethod } from './contract/operation.js';
export { type Credentials, definePlugin, isPlugin, type Plugin, type SandboxServer } from './contract/plugin.js';
export { type RegisteredIntegration, type RegisteredOperation, Registry } from './contract/registry.js';
export { Params, type Static, type TObject, Type } from './contract/schema.js';
export { OperationIndex, type SearchHit } from './contract/search.js';
export { parseUpstreamLimits, type UpstreamLimits } from './contract/upstream-limits.js';
export { coerceParams, compileParams, compilerReady, problemList, queryParams } from './contract/validation.js';
export { defineVocabulary, type PluginVocabulary, vocabularyProblems } from './contract/vocabulary.js';
export { connectionsOverview } from './doors/connections-overview.js';
export { describeOperation, exampleParams, type OperationDescription } from './doors/describe.js';
export { COMPACT_DESCRIPTION_BUDGET, type CompactDescription, describeCompact } from './doors/describe-compact.js';
export { type EventView, eventsFeed } from './doors/events-feed.js';
export { escapeHtml } from './doors/html.js';
// The MCP door's functions are in `@portico/core/mcp` (src/mcp.ts): the MCP SDK with zod and Ajv is about a quarter of
// core's import, and a gateway loads it with the first MCP request instead of at start-up. Its types stay here.
export type { McpServerOptions, McpToolMode } from './doors/mcp.js';
export type { LegacySseTransport } from './doors/mcp-http.js';
export { buildOpenApiDocument } from './doors/openapi.js';
export { queryValues, type RestInvocation, restCallFor, restInvocation } from './doors/rest.js';
export { DEFAULT_MCP_RESULT_BUDGET } from './doors/result-budget.js';
export { ERROR_CODES, ERROR_STATUS, type ErrorCode, errorBody, GatewayError, toGatewayError } from './errors.js';
export { type Logger, silentLogger } from './logger.js';
export { Engine } from './pipeline/engine.js';
export type { AuditDetail, EngineObserver, UpstreamObservation } from './pipeline/observers.js';
export { invokeResultJson } from './pipeline/pipeline.js';
export { leaseChunk } from './pipeline/rate-limit.js';
export type { GrantRecord } from './store/authorization-types.js';
export { MEMBER_ROLES, type MemberRecord, type MemberRole } from './store/member-types.js';
export type { MigrationStatus } from './store/migration-plan.js';
export { MIGRATIONS } from './store/migrations.js';
export { openStore, PostgresStore, type StoreChange, type StoreChangeListener } from './store/open.js';
export { DatabaseOutage, DEFAULT_DEGRADED_MS, isDatabaseDown } from './store/outage.js';
export type { ListenState } from './store/postgres-options.js';
export type { KeyScopes } from './store/scopes.js';
export { mayWrite } from './store/scopes.js';
export { SqliteStore } from './store/sqlite.js';
export {
  type ApiKeyRecord,
  type AuditEntry,
  type AuditPage,
  type AuditPruneResult,
  type AuditQuery,
  type AuditRecord,
  type AuditSeriesPoint,
  CONNECTION_POLICIES,
  type ConnectionPolicy,
  type ConnectionRecord,
  type ConnectionStatus,
  DEFAULT_WORKSPACE,
  type SessionTable,
  type Store,
  type ToolSetRule,
  type Workspace,
  type WorkspaceUsage,
} from './store/types.js';
export { EgressPolicy, parseEgressAllowance } from './upstream/egress.js';
export { BrokeredUpstreamLimiter, type SlotBroker, type SlotRelease, type UpstreamSlots } from './upstream/limiter-port.js';
export { UpstreamLimiter, type UpstreamLimitOptions } from './upstream/limits.js';
export { hasQuotaLeases, sharedWindows } from './upstream/shared-windows.js';
export { detectTracing, startServerSpan, tracingOn } from './upstream/spans.js';
export { currentTrace, formatTraceparent, runInTrace, type TraceContext, traceFromHeaders } from './upstream/trace-context.js';
export { parseWorkspaceHosts } from './upstream/workspace-base-urls.js';
