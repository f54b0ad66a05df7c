export {
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  errorBody,
  GatewayError,
  isGatewayError,
  toGatewayError,
  codeForUpstreamStatus,
} from './errors.js';
export { FreeObject, Params, type Static, StringEnum, type TObject, type TSchema, Type } from './schema.js';
export {
  type Access,
  accessOf,
  type DeclarativeUpstream,
  defineOperation,
  fillPath,
  type HttpMethod,
  openApiPath,
  type OperationContext,
  type OperationDefinition,
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
  type SandboxModule,
  type SandboxOptions,
  type SandboxServer,
  SUPPORTED_CONTRACT_VERSIONS,
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
export { retryAfterSeconds, type UpstreamClientOptions, DEFAULT_UPSTREAM_OPTIONS } from './http.js';
export {
  buildDeclarative,
  connectionAad,
  type CreatedKey,
  Engine,
  type EngineOptions,
  type IntegrationState,
  type InvokeRequest,
  type InvokeResult,
  messageFromBody,
  type Principal,
  type Protocol,
} from './engine.js';
export { Encryptor, type EncryptionKey, generateEncryptionKey, parseEncryptionKey } from './crypto.js';
export { API_KEY_PREFIX, generateApiKey, hashApiKey, isWellFormedApiKey } from './keys.js';
export { type Logger, silentLogger } from './logger.js';
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
export { SqliteStore } from './store/sqlite.js';
export { MIGRATIONS, type Migration } from './store/migrations.js';
