export { type EncryptionKey, Encryptor, generateEncryptionKey, parseEncryptionKey } from './crypto.js';
export { describeOperation, exampleParams, jsonSchema, type OperationDescription } from './describe.js';
export {
  buildDeclarative,
  type CreatedKey,
  connectionAad,
  Engine,
  type EngineOptions,
  type IntegrationState,
  type InvokeRequest,
  type InvokeResult,
  messageFromBody,
  type OAuthCompletion,
  type OAuthStart,
  type Principal,
  type Protocol,
  REFRESH_MARGIN_MS,
  type ReencryptionReport,
} from './engine.js';
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
export { DEFAULT_UPSTREAM_OPTIONS, retryAfterSeconds, type UpstreamClientOptions } from './http.js';
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
  type McpHttpAnswer,
  type McpHttpRequest,
  openLegacySseTransport,
} from './mcp-http.js';
export { InvalidGrantError, type OAuthClient, type OAuthClientConfig } from './oauth.js';
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
  pathTokens,
  type QueryValue,
  type RunContext,
  type UpstreamRequest,
  type UpstreamResponse,
} from './operation.js';
export {
  CONTRACT_VERSION,
  type Credentials,
  definePlugin,
  isPlugin,
  type OAuth2Settings,
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
export {
  type RegisteredIntegration,
  type RegisteredOperation,
  Registry,
  RegistryError,
  type RouteMatch,
  type RouteMiss,
} from './registry.js';
export { FreeObject, Params, type Static, StringEnum, type TObject, type TSchema, Type } from './schema.js';
export { OperationIndex, type SearchHit } from './search.js';
export { MIGRATIONS, type Migration } from './store/migrations.js';
export { openStore, PostgresStore, type PostgresStoreOptions, type StoreChange, type StoreChangeListener } from './store/open.js';
export { SqliteStore } from './store/sqlite.js';
export {
  type ApiKeyRecord,
  type AuditRecord,
  type ConnectionRecord,
  type ConnectionStatus,
  DEFAULT_WORKSPACE,
  type IntegrationSettingsRecord,
  type KeyScopes,
  type Store,
  type Workspace,
} from './store/types.js';
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
export { type CompiledParams, coerceStrings, compileParams } from './validation.js';
