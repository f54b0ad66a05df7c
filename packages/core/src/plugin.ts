// `@portico/core/plugin`: the contract a plugin is written against, and nothing of the gateway's runtime. A plugin (and
// packages/plugin-template) imports from here only; its tests add `@portico/core/testing`. The contract version
// (`CONTRACT_VERSION`) versions what this entry lists.

export type {
  DeliveryCheck,
  Handshake,
  InboundDelivery,
  NormalisedDelivery,
  NormalisedEvent,
  PluginEvents,
  PluginWebhookSubscriptions,
  SubscriptionClient,
  WebhookSubscription,
} from './contract/events.js';
export {
  type Access,
  accessOf,
  type DeclarativeUpstream,
  defineOperation,
  fillPath,
  type HttpMethod,
  type OperationContext,
  type OperationDefinition,
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
  type Static,
  StringEnum,
  type TObject,
  type TSchema,
  Type,
  together,
} from './contract/schema.js';
export { defineVocabulary, type PluginVocabulary, vocabularyProblems } from './contract/vocabulary.js';
export {
  codeForUpstreamStatus,
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  GatewayError,
  isGatewayError,
} from './errors.js';
export { buildDeclarative } from './upstream/declarative.js';
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
