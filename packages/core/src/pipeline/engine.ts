import { ApiKeys, type CreatedKey, type Principal } from '../access/api-keys.js';
import { type AttemptWindows, MemoryAttemptWindows } from '../access/attempts.js';
import { type IntegrationChange, IntegrationSettings, type IntegrationState } from '../access/integration-settings.js';
import { Members } from '../access/members.js';
import { type AllowedOperations, ToolSets } from '../access/tool-sets.js';
import { Workspaces } from '../access/workspaces.js';
import { ExternalIssuer, type ExternalIssuerOptions } from '../authorization/external-issuer.js';
import type { ClientMetadataDocumentOptions } from '../authorization/metadata-documents.js';
import type { AuthorizationOptions } from '../authorization/options.js';
import { AuthorizationServer } from '../authorization/server.js';
import { Connections, type ReencryptionReport } from '../connections/credentials.js';
import type { Encryptor } from '../connections/crypto.js';
import { ConnectionIdentities } from '../connections/identity.js';
import { KeyAgreement } from '../connections/key-agreement.js';
import { KeyRing } from '../connections/key-ring.js';
import { OAuthClients } from '../connections/oauth-clients.js';
import { type OAuthCompletion, OAuthFlow, type OAuthStart } from '../connections/oauth-flow.js';
import type { OAuthClient, OAuthClientConfig } from '../connections/oauth-protocol.js';
import type { Credentials } from '../contract/plugin.js';
import { type RegisteredIntegration, type Registry, requireIntegration } from '../contract/registry.js';
import { OperationIndex } from '../contract/search.js';
import { GatewayError } from '../errors.js';
import { type Logger, silentLogger } from '../logger.js';
import { DatabaseOutage, DEFAULT_DEGRADED_MS } from '../store/outage.js';
import { type AuditRecord, type ConnectionRecord, DEFAULT_WORKSPACE, type KeyScopes, type Store } from '../store/types.js';
import { DEFAULT_UPSTREAM_OPTIONS, UpstreamClient, type UpstreamClientOptions } from '../upstream/client.js';
import { type EgressOptions, EgressPolicy } from '../upstream/egress.js';
import type { UpstreamSlots } from '../upstream/limiter-port.js';
import { UpstreamLimiter, type UpstreamLimitOptions } from '../upstream/limits.js';
import { UpstreamSender } from '../upstream/send.js';
import { hasQuotaLeases, sharedWindows } from '../upstream/shared-windows.js';
import { detectTracing } from '../upstream/spans.js';
import { WorkspaceBaseUrls } from '../upstream/workspace-base-urls.js';
import { AuditLog } from './audit-log.js';
import { AuditSpool, type AuditSpoolOptions } from './audit-spool.js';
import { InboundEvents } from './inbound-events.js';
import { type EngineObserver, Observers } from './observers.js';
import { type InvokeRequest, type InvokeResult, Pipeline, type Protocol } from './pipeline.js';
import { createRateLimiter, type RateLimitOptions } from './rate-limit.js';
import { subscriptionClients, WebhookRegistrations } from './webhook-registrations.js';

// `Principal` lives with the API keys that resolve it; the testing helpers import it from here.
export type { Principal } from '../access/api-keys.js';

export interface EngineOptions {
  /** How long what is in memory keeps serving after the database stopped answering (degraded mode; default 5 minutes). */
  degradedMs?: number;
  registry: Registry;
  store: Store;
  encryptor: Encryptor;
  upstream?: Partial<UpstreamClientOptions>;
  /** Base URLs set by the operator's configuration (environment); they win over stored ones. */
  baseUrlOverrides?: Readonly<Record<string, string>>;
  logger?: Logger;
  /** How often audit records are written (ms). */
  auditFlushMs?: number;
  /** Where audit records wait on disk while the database refuses them (else in memory, lost at a stop). */
  auditSpool?: AuditSpoolOptions;
  /** Told of every audit record as it is recorded (an export for a SIEM); must not throw. */
  auditExporter?: (record: AuditRecord) => void;
  /** OAuth clients configured by the operator, per service. */
  oauthClients?: Readonly<Record<string, OAuthClientConfig>>;
  /** Public base URL of the gateway: the default OAuth redirect URI is `<publicUrl>/api/connect/<service>/callback`. */
  publicUrl?: string;
  /**
   * Re-reads the key ring. Called when a ciphertext names a key this process does not know yet: another process
   * rotated the keys, and this one picks the new key up without a restart.
   */
  reloadKeys?: () => Encryptor;
  /** The key file `reloadKeys` reads, if any: instances re-reading the same file on one host share its keys (key-agreement.ts). */
  keyFile?: string;
  /** Where upstream requests may go: link-local and metadata destinations the operator allows (see upstream/egress.ts). */
  egress?: EgressOptions;
  /**
   * Per-key rate limit of operation calls (off when absent or `perMinute` is 0). Shared by every instance when the
   * store can lease tokens (PostgreSQL), else kept in this process' memory.
   */
  rateLimit?: RateLimitOptions;
  /** Slots per upstream connection: the default cap, the queue's bounds and per-service limits (upstream/limits.ts). */
  upstreamLimits?: Partial<UpstreamLimitOptions>;
  /** Where the slots live when not in this process (the gateway's workers borrow their primary's); replaces `upstreamLimits`. */
  upstreamSlots?: UpstreamSlots;
  attempts?: AttemptWindows; // where per-address abuse limits count: this process unless given (workers: their primary)
  /** Lifetimes and limits of the built-in OAuth authorization server of the MCP and REST doors. */
  authorization?: AuthorizationOptions;
  /** Fetching Client ID Metadata Documents: hosts allowed although not public, an extra CA, caps. */
  clientMetadataDocuments?: ClientMetadataDocumentOptions;
  /** The firm's identity provider whose JWTs both doors accept too (authorization/external-issuer.ts); none by default. */
  externalIssuer?: ExternalIssuerOptions;
  /** Ask the plugin whom a connection acts as when it is stored (default true; off where the upstream is a recording). */
  identifyConnections?: boolean;
}

/**
 * The engine: everything between an authenticated request and an upstream answer. Both protocol adapters
 * call `invoke`; neither validates, refreshes, retries or maps errors itself.
 *
 * A facade: it wires the parts (API keys, integration settings, connections, the OAuth flow, the invoke pipeline,
 * upstream sending, audit) together and keeps their caches in step with the store's change notifications.
 */
export class Engine {
  readonly registry: Registry;
  readonly store: Store;
  readonly logger: Logger;
  /** Public base URL of the gateway (the OAuth redirect URI derives from it); set once the server knows its address. */
  publicUrl: string | undefined;
  /** Creating, renaming, listing and deleting workspaces (who may is the caller's to check: operator keys). */
  readonly workspaces: Workspaces;
  /** The tool sets of every workspace: saved, listed, deleted, and resolved for the keys bound to them. */
  readonly toolSets: ToolSets;
  /** The people of workspaces (members), who sign in with the firm's identity provider. */
  readonly members: Members;
  /** The built-in OAuth 2.1 authorization server whose access tokens both doors take (authorization/). */
  readonly authorization: AuthorizationServer;
  readonly attempts: AttemptWindows; // the per-address abuse limits' counts (access/attempts.ts): registrations, sign-ins
  readonly events: InboundEvents; // webhooks from the applications: signing secrets, deliveries, events (docs/events.md)
  private readonly keys: KeyRing;
  /** Which encryption key every live instance can decrypt with: the one new secrets are sealed with (two-phase rotation). */
  readonly keyAgreement: KeyAgreement;
  /** Degraded mode: what memory answers while the database does not (store/outage.ts). */
  readonly outage: DatabaseOutage;
  private readonly client: UpstreamClient;
  private readonly apiKeys: ApiKeys;
  private readonly settings: IntegrationSettings;
  private readonly oauthClients: OAuthClients;
  private readonly connections: Connections;
  /** Whom each connection acts as upstream (the plugins' who-am-I), kept with its non-secret facts. */
  readonly identities: ConnectionIdentities<IntegrationState>;
  readonly webhooks: WebhookRegistrations; // subscriptions plugins register with their applications, renewed
  private readonly oauth: OAuthFlow;
  private readonly pipeline: Pipeline;
  private readonly audit: AuditLog;
  private readonly observers = new Observers();
  private readonly unsubscribe: () => void;
  private index: OperationIndex | undefined;

  constructor(options: EngineOptions) {
    detectTracing(); // spans are recorded if an OpenTelemetry SDK was registered before the engine (upstream/spans.ts)
    this.registry = options.registry;
    this.store = options.store;
    this.logger = options.logger ?? silentLogger;
    this.publicUrl = options.publicUrl;
    this.keys = new KeyRing(options.encryptor, options.reloadKeys);
    this.keyAgreement = new KeyAgreement(this.store, this.keys, this.logger, options.keyFile ?? null);
    const egress = new EgressPolicy(options.egress);
    this.client = new UpstreamClient({ ...DEFAULT_UPSTREAM_OPTIONS, lookup: egress.lookup, ...options.upstream });
    this.audit = new AuditLog(this.store, this.logger, options.auditFlushMs ?? 1_000, this.observers, {
      ...(options.auditSpool ? { spool: new AuditSpool(options.auditSpool) } : {}),
      ...(options.auditExporter ? { exporter: options.auditExporter } : {}),
    });
    this.outage = new DatabaseOutage(options.degradedMs ?? DEFAULT_DEGRADED_MS, this.logger);
    this.apiKeys = new ApiKeys(this.store, this.logger, this.outage);
    const external = options.externalIssuer && new ExternalIssuer(options.externalIssuer, this.store, this.logger, egress);
    this.attempts = options.attempts ?? new MemoryAttemptWindows();
    this.authorization = new AuthorizationServer(
      this.store,
      this.logger,
      options.authorization,
      options.clientMetadataDocuments,
      egress,
      external,
      () => this.registry.list().map((i) => i.service),
      this.attempts,
    );
    this.authorization.tokens.outage = this.outage;
    this.workspaces = new Workspaces(this.store, () => this.flushAudit());
    this.toolSets = new ToolSets(this.registry, this.store, this.outage);
    this.members = new Members(this.store);
    this.events = new InboundEvents(this.registry, this.store, this.keys, this.logger);
    this.members.beforeRemove = (workspaceId, memberId) => this.connections.disconnectMember(workspaceId, memberId);
    this.workspaces.beforeDelete = (workspaceId) => this.webhooks.workspaceDeleting(workspaceId);
    const workspaceBaseUrls = new WorkspaceBaseUrls(egress, options.egress?.workspaceHosts);
    this.settings = new IntegrationSettings(this.registry, this.store, workspaceBaseUrls, this.outage);
    this.oauthClients = new OAuthClients(options.oauthClients ?? {}, () => this.publicUrl);
    const { registry, store, logger, keys, client, oauthClients, audit } = this;
    this.connections = new Connections({ registry, store, logger, keys, client, oauthClients, audit });
    this.connections.outage = this.outage;
    this.oauth = new OAuthFlow({ registry, store, keys, client, oauthClients, connections: this.connections, audit });
    const sender = new UpstreamSender(client, logger, egress, options.upstreamSlots ?? this.upstreamLimiter(options));
    sender.onCall = (observation) => this.observers.upstream(observation);
    this.pipeline = new Pipeline({
      registry,
      store,
      logger,
      settings: this.settings,
      toolSets: this.toolSets,
      connections: this.connections,
      upstream: sender,
      audit,
      baseUrlOverrides: options.baseUrlOverrides ?? {},
      workspaceBaseUrls,
      rateLimiter: createRateLimiter(options.rateLimit, {
        ...(store.leaseTokens ? { leaseTokens: store.leaseTokens.bind(store) } : {}),
        logger,
      }),
    });
    this.identities = new ConnectionIdentities({
      registry,
      store,
      logger,
      connections: this.connections,
      sender,
      state: (workspaceId, service) => this.settings.state(workspaceId, service),
      baseUrlFor: (integration, state, meta) => this.pipeline.baseUrlFor(integration, state, meta),
    });
    const clients = subscriptionClients(this.connections, this.settings, this.pipeline, sender);
    this.webhooks = new WebhookRegistrations(registry, store, keys, logger, clients);
    const identify = options.identifyConnections !== false; // then registers its webhooks (webhook-registrations.ts)
    this.connections.afterSave = async (saved) => this.webhooks.connected(identify ? await this.identities.identify(saved) : saved);
    // Settings changed by this process, another process (PostgreSQL NOTIFY) or the CLI drop the cached copy at once;
    // the cache lifetime bounds staleness should a notification be missed.
    this.unsubscribe = this.store.onChange((change) => {
      if (change.kind === 'api_key') {
        // keys are cached by hash, which a notification does not carry: any key change drops them all (rare)
        this.apiKeys.forget();
        return;
      }
      if (change.kind === 'workspace') {
        // renamed or deleted: a deleted workspace's keys, settings, connections and tool sets must not outlive it
        this.apiKeys.forget();
        for (const part of [this.settings, this.connections, this.toolSets]) part.forget(change.workspaceId, '*');
        return;
      }
      const part = change.kind === 'integration' ? this.settings : change.kind === 'tool_set' ? this.toolSets : this.connections;
      part.forget(change.workspaceId, change.id);
    });
  }

  /** Per-minute and per-hour upstream windows are shared by every instance when the store can lease them (PostgreSQL). */
  private upstreamLimiter(options: EngineOptions): UpstreamLimiter {
    const shared = hasQuotaLeases(this.store) ? sharedWindows(this.store, this.logger) : undefined;
    return new UpstreamLimiter(options.upstreamLimits, undefined, shared);
  }

  // ---- API keys -------------------------------------------------------------------------------------------

  /**
   * Issues a key in an existing workspace. An operator key must be an admin key of the default workspace; a tool set
   * must exist in the key's workspace (`not_found` otherwise, as for any id of another workspace). Whether the caller
   * may grant these scopes (only an operator grants `operator`) is the caller's to check.
   */
  async createApiKey(input: { workspaceId: string; name: string; scopes: KeyScopes; expiresAt?: string | null }): Promise<CreatedKey> {
    await this.workspaces.require(input.workspaceId);
    const { operator, toolSet } = input.scopes;
    if (operator && (!input.scopes.admin || input.workspaceId !== DEFAULT_WORKSPACE)) {
      throw new GatewayError('bad_request', 'An operator key is an admin key of the default workspace');
    }
    if (toolSet && !(await this.store.getToolSet(input.workspaceId, toolSet))) {
      throw new GatewayError('not_found', `No tool set ${toolSet} in this workspace`);
    }
    return this.apiKeys.create(input);
  }

  /**
   * Resolves a bearer token (an API key, an access token of the built-in authorization server, or a JWT of the
   * configured identity provider) to a principal, or throws `unauthorized` (one message for every failure).
   */
  authenticate(token: string | undefined): Promise<Principal> {
    if (token && this.authorization.takes(token)) return this.authorization.authenticate(token, this.publicUrl);
    return this.apiKeys.authenticate(token);
  }

  // ---- integration settings --------------------------------------------------------------------------------

  integrationState(workspaceId: string, service: string): Promise<IntegrationState> {
    return this.settings.state(workspaceId, service);
  }

  configureIntegration(workspaceId: string, service: string, change: IntegrationChange): Promise<IntegrationState> {
    return this.settings.configure(workspaceId, service, change);
  }

  // ---- connections ------------------------------------------------------------------------------------------

  /**
   * Stores a token-type credential (an API key or a non-expiring token pasted by an operator), as the workspace's
   * shared connection or (with `memberId`) as that member's own.
   */
  connectToken(
    workspaceId: string,
    service: string,
    token: string,
    meta: Record<string, unknown> = {},
    memberId: string | null = null,
  ): Promise<ConnectionRecord> {
    return this.connections.connectToken(workspaceId, service, token, meta, memberId);
  }

  saveConnection(
    workspaceId: string,
    service: string,
    kind: ConnectionRecord['kind'],
    credentials: Credentials,
    meta: Record<string, unknown> = {},
    memberId: string | null = null,
  ): Promise<ConnectionRecord> {
    return this.connections.save(workspaceId, service, kind, credentials, meta, memberId);
  }

  /** Deletes a connection: the shared one's webhook subscription removed upstream first, its OAuth token revoked (best effort). */
  async disconnect(workspaceId: string, service: string, memberId: string | null = null): ReturnType<Connections['disconnect']> {
    if (!memberId) await this.webhooks.disconnecting(workspaceId, service);
    return this.connections.disconnect(workspaceId, service, memberId);
  }

  /** Id of the key that encrypts new credentials (the configured active key once every live instance knows it). */
  get activeKeyId(): string {
    return this.keys.current.activeKeyId;
  }

  /** Id of the configured active key. */
  get configuredKeyId(): string {
    return this.keys.configured.activeKeyId;
  }

  /** Re-encrypts every connection of every workspace under the active key (after a rotation), while serving on. */
  reencryptAll(): Promise<ReencryptionReport> {
    return this.connections.reencryptAll();
  }

  // ---- OAuth connect flow ----------------------------------------------------------------------------------

  /** The OAuth client of a service: the plugin's endpoints, the operator's credentials and overrides. */
  oauthClient(integration: RegisteredIntegration): OAuthClient {
    return this.oauthClients.client(integration);
  }

  /**
   * Starts an authorization: a single-use state bound to the workspace and the key (or the member connecting their own
   * account: a personal connection), PKCE where the provider takes it.
   */
  beginOAuth(workspaceId: string, service: string, keyId: string | null, memberId: string | null = null): Promise<OAuthStart> {
    return this.oauth.begin(workspaceId, service, keyId, memberId);
  }

  /** Finishes an authorization from the provider's redirect (see `OAuthFlow.complete`). Every outcome is audited. */
  completeOAuth(service: string, query: Readonly<Record<string, string>>): Promise<OAuthCompletion> {
    return this.oauth.complete(service, query);
  }

  // ---- access -------------------------------------------------------------------------------------------------

  requireIntegration(service: string): RegisteredIntegration {
    return requireIntegration(this.registry, service);
  }

  /** May this principal use this service over this protocol? Throws not_found / forbidden. */
  authorize(principal: Principal, service: string, protocol: Protocol): Promise<RegisteredIntegration> {
    return this.pipeline.authorize(principal, service, protocol);
  }

  /** The operations this principal's tool set allows; undefined when the key is not bound to one (everything). */
  async allowedOperations(principal: Principal): Promise<AllowedOperations | undefined> {
    return this.pipeline.allowedOperations(principal);
  }

  /** Integrations this principal may call over `protocol` and that have a connection, in registration order. */
  visibleIntegrations(principal: Principal, protocol: Protocol): Promise<RegisteredIntegration[]> {
    return this.pipeline.visibleIntegrations(principal, protocol);
  }

  /** Keyword index over every registered operation (the registry is fixed once the gateway has started). */
  get operationIndex(): OperationIndex {
    this.index ??= new OperationIndex(this.registry.list());
    return this.index;
  }

  // ---- the pipeline ---------------------------------------------------------------------------------------

  invoke(request: InvokeRequest): Promise<InvokeResult> {
    return this.pipeline.invoke(request);
  }

  baseUrlFor(integration: RegisteredIntegration, state: IntegrationState, meta: Readonly<Record<string, unknown>>): string {
    return this.pipeline.baseUrlFor(integration, state, meta);
  }

  // ---- audit and observers -------------------------------------------------------------------------------------

  /** Subscribes an observer (metrics) to every audited outcome and upstream call (`EngineObserver`); returns its unsubscribe. */
  observe(observer: EngineObserver): () => void {
    return this.observers.add(observer);
  }

  flushAudit(): Promise<void> {
    return this.audit.flush();
  }

  async close(): Promise<void> {
    await this.webhooks.stop();
    await this.keyAgreement.stop();
    this.unsubscribe();
    this.audit.stop();
    await this.flushAudit();
    await this.audit.abandonHeld();
    this.client.close();
  }
}
