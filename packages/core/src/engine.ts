import { Value } from 'typebox/value';
import { Encryptor } from './crypto.js';
import { codeForUpstreamStatus, GatewayError, toGatewayError } from './errors.js';
import { DEFAULT_UPSTREAM_OPTIONS, retryAfterSeconds, UpstreamClient, type UpstreamClientOptions } from './http.js';
import { displayPrefix, generateApiKey, hashApiKey, hashesEqual, isWellFormedApiKey, newKeyId } from './keys.js';
import { type Logger, silentLogger } from './logger.js';
import {
  authorizeUrl,
  hashState,
  InvalidGrantError,
  newState,
  type OAuthClient,
  type OAuthClientConfig,
  pkcePair,
  requestToken,
  revokeToken,
} from './oauth.js';
import {
  type DeclarativeUpstream,
  fillPath,
  type OperationContext,
  pathTokens,
  type QueryValue,
  type UpstreamRequest,
  type UpstreamResponse,
} from './operation.js';
import type { Credentials, TokenSet, UpstreamFailure } from './plugin.js';
import type { RegisteredIntegration, RegisteredOperation, Registry } from './registry.js';
import { OperationIndex } from './search.js';
import type { ApiKeyRecord, AuditRecord, ConnectionRecord, IntegrationSettingsRecord, KeyScopes, Store } from './store/types.js';
import { coerceParams, queryParams } from './validation.js';

export type Protocol = 'mcp' | 'rest';

/** Who is calling: resolved from the API key on every request. */
export interface Principal {
  keyId: string | null;
  workspaceId: string;
  scopes: KeyScopes;
}

export interface InvokeRequest {
  principal: Principal;
  protocol: Protocol;
  service: string;
  operation: string;
  /** Typed params (JSON body, MCP arguments, path segments). Coerced by the one rule (`coerceParams`). */
  params?: Record<string, unknown>;
  /** Params from a query string (repeated keys as arrays); `params` wins over them. Coerced by the same rule. */
  stringParams?: Record<string, string | string[]>;
}

export interface InvokeResult {
  /** The upstream's JSON (or the operation's transform of it). `undefined` when the upstream sent no body. */
  body: unknown;
}

/** An integration as a workspace has configured it, defaults applied. */
export interface IntegrationState {
  service: string;
  mcpEnabled: boolean;
  restEnabled: boolean;
  baseUrl: string | null;
  settings: Record<string, unknown>;
}

export interface EngineOptions {
  registry: Registry;
  store: Store;
  encryptor: Encryptor;
  upstream?: Partial<UpstreamClientOptions>;
  /** Base URLs set by the operator's configuration (environment); they win over stored ones. */
  baseUrlOverrides?: Readonly<Record<string, string>>;
  logger?: Logger;
  /** How often audit records are written (ms). */
  auditFlushMs?: number;
  /** OAuth clients configured by the operator, per service. */
  oauthClients?: Readonly<Record<string, OAuthClientConfig>>;
  /** Public base URL of the gateway: the default OAuth redirect URI is `<publicUrl>/api/connect/<service>/callback`. */
  publicUrl?: string;
  /**
   * Re-reads the key ring. Called when a ciphertext names a key this process does not know yet: another process
   * rotated the keys, and this one picks the new key up without a restart.
   */
  reloadKeys?: () => Encryptor;
}

export interface ReencryptionReport {
  total: number;
  rewritten: number;
  /** Already under the active key. */
  current: number;
  failed: Array<{ workspaceId: string; service: string; reason: string }>;
}

/** Refresh an access token when it expires within this margin. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** How long a started OAuth authorization may take. */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export interface OAuthStart {
  authorizeUrl: string;
  expiresAt: string;
}

export interface OAuthCompletion {
  service: string;
  workspaceId: string;
  meta: Record<string, unknown>;
}

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

const TOUCH_INTERVAL_MS = 60_000;
/** Longest time a settings change made elsewhere can go unseen if its change notification is lost. */
export const SETTINGS_CACHE_MS = 5_000;

const cacheKey = (workspaceId: string, service: string) => `${workspaceId}\u0000${service}`;
const MAX_MESSAGE = 500;

/**
 * The engine: everything between an authenticated request and an upstream answer. Both protocol adapters
 * call `invoke`; neither validates, refreshes, retries or maps errors itself.
 */
export class Engine {
  readonly registry: Registry;
  readonly store: Store;
  readonly logger: Logger;
  private encryptor: Encryptor;
  private readonly reloadKeys: (() => Encryptor) | undefined;
  private readonly client: UpstreamClient;
  private readonly baseUrlOverrides: Readonly<Record<string, string>>;
  private readonly integrationCache = new Map<string, { state: IntegrationState; expires: number }>();
  private readonly unsubscribe: () => void;
  private index: OperationIndex | undefined;
  private readonly oauthClients: Readonly<Record<string, OAuthClientConfig>>;
  /** Public base URL of the gateway (the OAuth redirect URI derives from it); set once the server knows its address. */
  publicUrl: string | undefined;
  /** In-process single flight: one refresh per connection at a time, however many calls wait for it. */
  private readonly refreshing = new Map<string, Promise<{ credentials: Credentials; record: ConnectionRecord }>>();
  private readonly touched = new Map<string, number>();
  /** API keys by hash, and decrypted credentials by connection: dropped on change notifications, else after CACHE_MS. */
  private readonly keyCache = new Map<string, { record: ApiKeyRecord | undefined; expires: number }>();
  private readonly credentialCache = new Map<string, { value: { credentials: Credentials; record: ConnectionRecord }; expires: number }>();
  private auditQueue: AuditRecord[] = [];
  private readonly auditTimer: NodeJS.Timeout;
  private auditFlushing: Promise<void> = Promise.resolve();

  constructor(options: EngineOptions) {
    this.registry = options.registry;
    this.store = options.store;
    this.encryptor = options.encryptor;
    this.reloadKeys = options.reloadKeys;
    this.logger = options.logger ?? silentLogger;
    this.baseUrlOverrides = options.baseUrlOverrides ?? {};
    this.client = new UpstreamClient({ ...DEFAULT_UPSTREAM_OPTIONS, ...options.upstream });
    this.oauthClients = options.oauthClients ?? {};
    this.publicUrl = options.publicUrl;
    this.auditTimer = setInterval(() => void this.flushAudit(), options.auditFlushMs ?? 1_000);
    this.auditTimer.unref();
    // Settings changed by this process, another process (PostgreSQL NOTIFY) or the CLI drop the cached copy at once;
    // the cache lifetime bounds staleness should a notification be missed.
    this.unsubscribe = this.store.onChange((change) => {
      if (change.kind === 'api_key') {
        // keys are cached by hash, which a notification does not carry: any key change drops them all (rare)
        this.keyCache.clear();
        return;
      }
      const cache = change.kind === 'integration' ? this.integrationCache : this.credentialCache;
      if (change.id === '*') cache.clear();
      else cache.delete(cacheKey(change.workspaceId, change.id));
    });
  }

  // ---- API keys -------------------------------------------------------------------------------------------

  async createApiKey(input: { workspaceId: string; name: string; scopes: KeyScopes; expiresAt?: string | null }): Promise<CreatedKey> {
    const key = generateApiKey();
    const record: ApiKeyRecord = {
      id: newKeyId(),
      workspaceId: input.workspaceId,
      name: input.name,
      hash: hashApiKey(key),
      prefix: displayPrefix(key),
      scopes: input.scopes,
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
    };
    await this.store.createApiKey(record);
    return { key, record };
  }

  /** Resolves a bearer token to a principal, or throws `unauthorized` (one message for every failure). */
  async authenticate(token: string | undefined): Promise<Principal> {
    const reject = () => new GatewayError('unauthorized', 'A valid API key is required: send Authorization: Bearer <key>');
    if (!token || !isWellFormedApiKey(token)) throw reject();
    const hash = hashApiKey(token);
    const record = await this.lookupKey(hash);
    if (!record || !hashesEqual(record.hash, hash)) throw reject();
    if (record.revokedAt) throw reject();
    if (record.expiresAt && Date.parse(record.expiresAt) <= Date.now()) throw reject();
    this.touch(record.id);
    return { keyId: record.id, workspaceId: record.workspaceId, scopes: record.scopes };
  }

  private async lookupKey(hash: string): Promise<ApiKeyRecord | undefined> {
    const now = Date.now();
    const cached = this.keyCache.get(hash);
    if (cached && cached.expires > now) return cached.record;
    const record = await this.store.findApiKeyByHash(hash);
    // Unknown hashes are cached too (briefly), so that a flood of bad keys does not become a flood of queries;
    // the cache is bounded so that it cannot grow without limit.
    if (this.keyCache.size >= 10_000) this.keyCache.clear();
    this.keyCache.set(hash, { record, expires: now + SETTINGS_CACHE_MS });
    return record;
  }

  /** last_used_at is written at most once a minute per key, off the request path. */
  private touch(id: string): void {
    const now = Date.now();
    if ((this.touched.get(id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    this.touched.set(id, now);
    this.store.touchApiKey(id, new Date(now).toISOString()).catch((error) => {
      this.logger.warn({ err: error, keyId: id }, 'could not record key use');
    });
  }

  // ---- integration settings --------------------------------------------------------------------------------

  async integrationState(workspaceId: string, service: string): Promise<IntegrationState> {
    const key = cacheKey(workspaceId, service);
    const cached = this.integrationCache.get(key);
    if (cached && cached.expires > Date.now()) return cached.state;
    const integration = this.requireIntegration(service);
    const stored = await this.store.getIntegration(workspaceId, service);
    const state: IntegrationState = {
      service,
      // A new integration starts with MCP on and REST off (Core Specification, protocol toggles).
      mcpEnabled: stored?.mcpEnabled ?? true,
      restEnabled: stored?.restEnabled ?? false,
      baseUrl: stored?.baseUrl ?? null,
      settings: this.settingsWithDefaults(integration, stored?.settings ?? {}),
    };
    this.integrationCache.set(key, { state, expires: Date.now() + SETTINGS_CACHE_MS });
    return state;
  }

  async configureIntegration(
    workspaceId: string,
    service: string,
    change: { mcpEnabled?: boolean; restEnabled?: boolean; baseUrl?: string | null; settings?: Record<string, unknown> },
  ): Promise<IntegrationState> {
    const integration = this.requireIntegration(service);
    const current = await this.integrationState(workspaceId, service);
    if (change.baseUrl) assertHttpUrl(change.baseUrl, 'baseUrl');
    const settings = { ...current.settings, ...change.settings };
    if (integration.settingsValidator && !integration.settingsValidator.check(settings)) {
      throw new GatewayError(
        'bad_request',
        `Invalid settings: ${integration.settingsValidator.problems(settings).join('; ').replaceAll('params', 'settings')}`,
      );
    }
    const record: IntegrationSettingsRecord = {
      workspaceId,
      service,
      mcpEnabled: change.mcpEnabled ?? current.mcpEnabled,
      restEnabled: change.restEnabled ?? current.restEnabled,
      baseUrl: change.baseUrl === undefined ? current.baseUrl : change.baseUrl,
      settings,
      updatedAt: new Date().toISOString(),
    };
    await this.store.putIntegration(record);
    this.integrationCache.delete(cacheKey(workspaceId, service));
    return this.integrationState(workspaceId, service);
  }

  private settingsWithDefaults(integration: RegisteredIntegration, stored: Record<string, unknown>): Record<string, unknown> {
    const schema = integration.plugin.settings;
    return schema ? (Value.Default(schema, structuredClone(stored)) as Record<string, unknown>) : { ...stored };
  }

  // ---- connections ------------------------------------------------------------------------------------------

  /** Stores a token-type credential (an API key or a non-expiring token pasted by an operator). */
  async connectToken(workspaceId: string, service: string, token: string, meta: Record<string, unknown> = {}): Promise<ConnectionRecord> {
    this.requireIntegration(service);
    if (!token.trim()) throw new GatewayError('bad_request', 'The token is empty');
    return this.saveConnection(workspaceId, service, 'token', { accessToken: token.trim() }, meta);
  }

  async saveConnection(
    workspaceId: string,
    service: string,
    kind: ConnectionRecord['kind'],
    credentials: Credentials,
    meta: Record<string, unknown> = {},
  ): Promise<ConnectionRecord> {
    const now = new Date().toISOString();
    const existing = await this.store.getConnection(workspaceId, service);
    return this.store.putConnection({
      workspaceId,
      service,
      kind,
      secret: this.encryptor.encrypt(JSON.stringify(credentials), connectionAad(workspaceId, service)),
      meta,
      status: 'active',
      expiresAt: credentials.expiresAt ?? null,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    });
  }

  /**
   * Deletes a connection; an OAuth connection's token is revoked upstream first where the provider supports it.
   * A failed revocation does not keep the credentials here (the operator asked for them to go): it is reported back.
   */
  async disconnect(workspaceId: string, service: string): Promise<{ deleted: boolean; revoked: boolean | null; revokeError?: string }> {
    const record = await this.store.getConnection(workspaceId, service);
    if (!record) return { deleted: false, revoked: null };
    let revoked: boolean | null = null;
    let revokeError: string | undefined;
    const integration = this.registry.get(service);
    if (record.kind === 'oauth2' && integration?.plugin.auth.oauth2?.revokeUrl && this.oauthClients[service]) {
      try {
        const credentials = this.decryptCredentials(record);
        await revokeToken(this.client, this.oauthClient(integration), credentials.refreshToken ?? credentials.accessToken);
        revoked = true;
      } catch (error) {
        revoked = false;
        revokeError = toGatewayError(error).code === 'internal_error' ? 'the provider could not be reached' : (error as Error).message;
        this.logger.warn({ service, workspaceId, reason: revokeError }, 'could not revoke the token upstream; deleting it here anyway');
      }
    }
    const deleted = await this.store.deleteConnection(workspaceId, service);
    return { deleted, revoked, ...(revokeError ? { revokeError } : {}) };
  }

  /** The connection's credentials, refreshed first when the access token expires within REFRESH_MARGIN_MS. */
  private async credentialsFor(
    integration: RegisteredIntegration,
    workspaceId: string,
  ): Promise<{ credentials: Credentials; record: ConnectionRecord }> {
    const key = cacheKey(workspaceId, integration.service);
    const cached = this.credentialCache.get(key);
    const loaded = cached && cached.expires > Date.now() ? cached.value : await this.loadCredentials(workspaceId, integration.service);
    if (!cached || cached.value !== loaded) this.credentialCache.set(key, { value: loaded, expires: Date.now() + SETTINGS_CACHE_MS });
    if (!needsRefresh(loaded.credentials)) return loaded;
    let flight = this.refreshing.get(key);
    if (!flight) {
      flight = this.refresh(integration, workspaceId).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, flight);
    }
    return flight;
  }

  private async loadCredentials(workspaceId: string, service: string): Promise<{ credentials: Credentials; record: ConnectionRecord }> {
    const record = await this.store.getConnection(workspaceId, service);
    if (!record) {
      throw new GatewayError(
        'not_connected',
        `${service} is not connected: connect it first (portico connect ${service}, or the admin API)`,
      );
    }
    if (record.status === 'needs_reconnect') {
      throw new GatewayError(
        'not_connected',
        `The ${service} connection was refused by the provider and must be authorized again (portico connect ${service} --oauth)`,
      );
    }
    return { credentials: this.decryptCredentials(record), record };
  }

  private decryptCredentials(record: ConnectionRecord): Credentials {
    const aad = connectionAad(record.workspaceId, record.service);
    try {
      const keyId = Encryptor.keyIdOf(record.secret);
      if (keyId && !this.encryptor.hasKey(keyId) && this.reloadKeys) this.encryptor = this.reloadKeys();
      return JSON.parse(this.encryptor.decrypt(record.secret, aad)) as Credentials;
    } catch (error) {
      this.logger.error(
        { err: errorSummary(error), service: record.service, workspaceId: record.workspaceId },
        'stored credentials cannot be decrypted',
      );
      throw new GatewayError(
        'not_connected',
        `The stored ${record.service} credentials cannot be decrypted with the configured encryption keys`,
      );
    }
  }

  /**
   * One refresh per connection across every instance: the store's connection lock (a PostgreSQL advisory lock when
   * several instances share a database), then a re-read, since another instance may have refreshed meanwhile.
   * The new tokens are stored (compare-and-swap on the version) before they are used, so a rotated refresh token
   * is never lost to a crash after the fact; until then the stored credential is left untouched.
   */
  private async refresh(
    integration: RegisteredIntegration,
    workspaceId: string,
  ): Promise<{ credentials: Credentials; record: ConnectionRecord }> {
    const service = integration.service;
    return this.store.withConnectionLock(workspaceId, service, async () => {
      const current = await this.loadCredentials(workspaceId, service);
      if (!needsRefresh(current.credentials)) return current;
      const client = this.oauthClient(integration);
      let tokens: TokenSet;
      try {
        ({ tokens } = await requestToken(this.client, client, {
          grant_type: 'refresh_token',
          refresh_token: current.credentials.refreshToken as string,
        }));
      } catch (error) {
        if (!(error instanceof InvalidGrantError)) throw error;
        await this.store.swapConnection(
          { ...current.record, status: 'needs_reconnect', updatedAt: new Date().toISOString() },
          current.record.version,
        );
        this.logger.warn({ service, workspaceId }, 'refresh token refused (invalid_grant); the connection needs to be authorized again');
        this.audit(workspaceId, null, service, 'oauth_refresh', 'admin', 424, 'not_connected');
        throw new GatewayError(
          'not_connected',
          `The ${service} provider refused the refresh token; the connection must be authorized again`,
        );
      }
      const credentials: Credentials = {
        accessToken: tokens.accessToken,
        // Providers with reusable refresh tokens (Clio) send none back: keep the one we have.
        ...((tokens.refreshToken ?? current.credentials.refreshToken)
          ? { refreshToken: tokens.refreshToken ?? current.credentials.refreshToken }
          : {}),
        ...(tokens.expiresIn ? { expiresAt: new Date(Date.now() + tokens.expiresIn * 1000).toISOString() } : {}),
      };
      const saved = await this.store.swapConnection(
        {
          ...current.record,
          secret: this.encryptor.encrypt(JSON.stringify(credentials), connectionAad(workspaceId, service)),
          expiresAt: credentials.expiresAt ?? null,
          status: 'active',
          updatedAt: new Date().toISOString(),
        },
        current.record.version,
      );
      if (!saved) {
        // Someone wrote the connection while we held the lock (an operator reconnecting): theirs is newer.
        return this.loadCredentials(workspaceId, service);
      }
      this.audit(workspaceId, null, service, 'oauth_refresh', 'admin', 200, null);
      return { credentials, record: saved };
    });
  }

  // ---- OAuth connect flow ----------------------------------------------------------------------------------

  /** The OAuth client of a service: the plugin's endpoints, the operator's credentials and overrides. */
  oauthClient(integration: RegisteredIntegration): OAuthClient {
    const settings = integration.plugin.auth.oauth2;
    if (!settings) throw new GatewayError('bad_request', `${integration.service} does not connect with OAuth; store a token instead`);
    const config = this.oauthClients[integration.service];
    if (!config) {
      const prefix = `PORTICO_${integration.service.toUpperCase()}`;
      throw new GatewayError(
        'bad_request',
        `OAuth is not configured for ${integration.service}: set ${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET`,
      );
    }
    const redirectUri =
      config.redirectUri ?? (this.publicUrl ? `${this.publicUrl}/api/connect/${integration.service}/callback` : undefined);
    if (!redirectUri)
      throw new GatewayError('bad_request', `No OAuth redirect URL for ${integration.service}: set PORTICO_PUBLIC_URL or a redirect URL`);
    return {
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      redirectUri,
      settings: {
        ...settings,
        ...(config.authorizeUrl ? { authorizeUrl: config.authorizeUrl } : {}),
        ...(config.tokenUrl ? { tokenUrl: config.tokenUrl } : {}),
        ...(config.revokeUrl ? { revokeUrl: config.revokeUrl } : {}),
      },
    };
  }

  /** Starts an authorization: a single-use state bound to the workspace and the key, PKCE where the provider takes it. */
  async beginOAuth(workspaceId: string, service: string, keyId: string | null): Promise<OAuthStart> {
    const client = this.oauthClient(this.requireIntegration(service));
    const state = newState();
    const stateHash = hashState(state);
    const pkce = client.settings.pkce ? pkcePair() : undefined;
    const now = Date.now();
    const expiresAt = new Date(now + OAUTH_STATE_TTL_MS).toISOString();
    await this.store.createOAuthState({
      stateHash,
      workspaceId,
      service,
      keyId,
      verifier: pkce ? this.encryptor.encrypt(pkce.verifier, `portico/oauth-state/${stateHash}`) : null,
      redirectUri: client.redirectUri,
      createdAt: new Date(now).toISOString(),
      expiresAt,
      usedAt: null,
    });
    return { authorizeUrl: authorizeUrl(client, state, pkce?.challenge), expiresAt };
  }

  /**
   * Finishes an authorization from the provider's redirect: the state must be known, unused and unexpired; the code is
   * exchanged server to server; tokens are stored encrypted with the provider's non-secret facts. Every outcome is audited.
   */
  async completeOAuth(service: string, query: Readonly<Record<string, string>>): Promise<OAuthCompletion> {
    const integration = this.requireIntegration(service);
    const state = query.state ?? '';
    if (!state) throw new GatewayError('bad_request', 'The provider sent no state: start the connection again from Portico');
    const stateHash = hashState(state);
    const record = await this.store.consumeOAuthState(stateHash, new Date().toISOString());
    const fail = (workspaceId: string, keyId: string | null, error: GatewayError): never => {
      this.audit(workspaceId, keyId, service, 'oauth_connect', 'admin', error.status, error.code);
      throw error;
    };
    if (!record || record.service !== service) {
      return fail(
        DEFAULT_WORKSPACE_ID,
        null,
        new GatewayError('bad_request', 'This authorization link is unknown or was already used: start the connection again'),
      );
    }
    if (Date.parse(record.expiresAt) <= Date.now()) {
      return fail(
        record.workspaceId,
        record.keyId,
        new GatewayError('bad_request', 'This authorization took too long and expired: start the connection again'),
      );
    }
    if (query.error) {
      const reason = query.error === 'access_denied' ? 'consent was denied at the provider' : `the provider answered ${query.error}`;
      return fail(
        record.workspaceId,
        record.keyId,
        new GatewayError(
          'bad_request',
          `Not connected: ${reason}${query.error_description ? ` (${query.error_description.slice(0, 200)})` : ''}`,
        ),
      );
    }
    if (!query.code)
      return fail(record.workspaceId, record.keyId, new GatewayError('bad_request', 'The provider sent no authorization code'));
    const client = this.oauthClient(integration);
    const grant: Record<string, string> = { grant_type: 'authorization_code', code: query.code, redirect_uri: record.redirectUri };
    if (record.verifier) grant.code_verifier = this.encryptor.decrypt(record.verifier, `portico/oauth-state/${stateHash}`);
    let exchanged: { tokens: TokenSet; body: unknown };
    try {
      exchanged = await requestToken(this.client, client, grant);
    } catch (error) {
      const failure =
        error instanceof InvalidGrantError
          ? new GatewayError('bad_request', 'The provider refused the authorization code (it may have expired): start the connection again')
          : toGatewayError(error).code === 'internal_error'
            ? new GatewayError('upstream_error', 'The provider’s token endpoint could not be reached')
            : toGatewayError(error);
      return fail(record.workspaceId, record.keyId, failure);
    }
    const { tokens, body } = exchanged;
    const meta = client.settings.connectionFacts?.(query, body) ?? {};
    await this.saveConnection(
      record.workspaceId,
      service,
      'oauth2',
      {
        accessToken: tokens.accessToken,
        ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
        ...(tokens.expiresIn ? { expiresAt: new Date(Date.now() + tokens.expiresIn * 1000).toISOString() } : {}),
      },
      meta,
    );
    this.audit(record.workspaceId, record.keyId, service, 'oauth_connect', 'admin', 200, null);
    return { service, workspaceId: record.workspaceId, meta };
  }

  private audit(
    workspaceId: string,
    keyId: string | null,
    service: string,
    operation: string,
    protocol: AuditRecord['protocol'],
    status: number,
    code: string | null,
  ): void {
    this.auditQueue.push({ at: new Date().toISOString(), workspaceId, keyId, service, operation, protocol, status, code, durationMs: 0 });
  }

  /** Id of the key that encrypts new credentials. */
  get activeKeyId(): string {
    return this.encryptor.activeKeyId;
  }

  /**
   * Re-encrypts every connection of every workspace under the active key (after a rotation), while the gateway
   * keeps serving: each row is rewritten with compare-and-swap, so a refresh that lands meanwhile is never
   * overwritten (the row is read again and retried).
   */
  async reencryptAll(): Promise<ReencryptionReport> {
    const report: ReencryptionReport = { total: 0, rewritten: 0, current: 0, failed: [] };
    for (const listed of await this.store.allConnections()) {
      report.total++;
      let record: ConnectionRecord | undefined = listed;
      for (let attempt = 0; record && attempt < 5; attempt++) {
        if (Encryptor.keyIdOf(record.secret) === this.encryptor.activeKeyId) {
          report.current++;
          record = undefined;
          break;
        }
        try {
          const aad = connectionAad(record.workspaceId, record.service);
          const secret = this.encryptor.encrypt(this.encryptor.decrypt(record.secret, aad), aad);
          const saved = await this.store.swapConnection({ ...record, secret }, record.version);
          if (saved) {
            report.rewritten++;
            record = undefined;
            break;
          }
          record = await this.store.getConnection(listed.workspaceId, listed.service); // written meanwhile: again
        } catch (error) {
          report.failed.push({ workspaceId: listed.workspaceId, service: listed.service, reason: errorSummary(error) });
          record = undefined;
        }
      }
    }
    return report;
  }

  // ---- access -------------------------------------------------------------------------------------------------

  requireIntegration(service: string): RegisteredIntegration {
    const integration = this.registry.get(service);
    if (!integration) throw new GatewayError('not_found', `Unknown service "${service}"`);
    return integration;
  }

  /** May this principal use this service over this protocol? Throws not_found / forbidden. */
  async authorize(principal: Principal, service: string, protocol: Protocol): Promise<RegisteredIntegration> {
    const integration = this.requireIntegration(service);
    const { services } = principal.scopes;
    if (services !== '*' && !services.includes(service)) {
      throw new GatewayError('forbidden', `This API key may not call ${service}`);
    }
    const state = await this.integrationState(principal.workspaceId, service);
    if (protocol === 'rest' && !state.restEnabled) {
      throw new GatewayError(
        'forbidden',
        `REST access to ${service} is disabled for this workspace (enable it with: portico integrations configure ${service} --rest on)`,
      );
    }
    if (protocol === 'mcp' && !state.mcpEnabled) {
      throw new GatewayError('forbidden', `MCP access to ${service} is disabled for this workspace`);
    }
    return integration;
  }

  /** Integrations this principal may call over `protocol` and that have a connection, in registration order. */
  async visibleIntegrations(principal: Principal, protocol: Protocol): Promise<RegisteredIntegration[]> {
    const connected = new Set((await this.store.listConnections(principal.workspaceId)).map((c) => c.service));
    const out: RegisteredIntegration[] = [];
    for (const integration of this.registry.list()) {
      const { services } = principal.scopes;
      if (services !== '*' && !services.includes(integration.service)) continue;
      if (!connected.has(integration.service)) continue;
      const state = await this.integrationState(principal.workspaceId, integration.service);
      if (protocol === 'mcp' ? state.mcpEnabled : state.restEnabled) out.push(integration);
    }
    return out;
  }

  /** Keyword index over every registered operation (the registry is fixed once the gateway has started). */
  get operationIndex(): OperationIndex {
    this.index ??= new OperationIndex(this.registry.list());
    return this.index;
  }

  // ---- the pipeline ---------------------------------------------------------------------------------------

  async invoke(request: InvokeRequest): Promise<InvokeResult> {
    const started = performance.now();
    let status = 200;
    let code: string | null = null;
    try {
      const integration = await this.authorize(request.principal, request.service, request.protocol);
      const operation = integration.operations.get(request.operation);
      if (!operation) throw new GatewayError('not_found', `${request.service} has no operation "${request.operation}"`);
      if (request.principal.scopes.readOnly && operation.access !== 'read') {
        throw new GatewayError(
          'forbidden',
          `This API key is read-only; ${request.operation} ${operation.access === 'delete' ? 'deletes' : 'writes'} data`,
        );
      }
      const params = this.validate(operation, request);
      const result = await this.execute(integration, operation, params, request.principal.workspaceId);
      return result;
    } catch (error) {
      const failure = toGatewayError(error);
      status = failure.status;
      code = failure.code;
      if (failure.code === 'internal_error') {
        this.logger.error({ err: error, service: request.service, operation: request.operation }, 'operation failed');
      }
      throw failure;
    } finally {
      this.auditQueue.push({
        at: new Date().toISOString(),
        workspaceId: request.principal.workspaceId,
        keyId: request.principal.keyId,
        service: request.service,
        operation: request.operation,
        protocol: request.protocol,
        status,
        code,
        durationMs: performance.now() - started,
      });
      if (this.auditQueue.length >= 500) void this.flushAudit();
    }
  }

  private validate(operation: RegisteredOperation, request: InvokeRequest): Record<string, unknown> {
    // One coercion rule for every door (validation.ts): query values and typed values meet the same schema.
    const schema = operation.definition.params;
    const params = coerceParams(schema, { ...(request.stringParams ? queryParams(schema, request.stringParams) : {}), ...request.params });
    if (!operation.validator.check(params)) {
      const problems = operation.validator.problems(params);
      throw new GatewayError('bad_request', `Invalid params for ${operation.name}: ${problems.join('; ')}`);
    }
    const problem = operation.definition.check?.(params as never);
    if (problem) throw new GatewayError('bad_request', `Invalid params for ${operation.name}: ${problem}`);
    return params;
  }

  private async execute(
    integration: RegisteredIntegration,
    operation: RegisteredOperation,
    params: Record<string, unknown>,
    workspaceId: string,
  ): Promise<InvokeResult> {
    const { credentials, record } = await this.credentialsFor(integration, workspaceId);
    const state = await this.integrationState(workspaceId, integration.service);
    const context: OperationContext = { settings: state.settings, connection: record.meta };
    const baseUrl = this.baseUrlFor(integration, state, record.meta);
    const send = (upstream: UpstreamRequest) => this.send(integration, operation, upstream, baseUrl, credentials, state.settings);
    const definition = operation.definition;
    let body: unknown;
    if (definition.run) {
      body = await definition.run(params as never, { ...context, send });
    } else {
      const upstream =
        typeof definition.upstream === 'function'
          ? definition.upstream(params as never, context)
          : buildDeclarative(definition.upstream as DeclarativeUpstream, params);
      body = (await send(upstream)).body;
    }
    return { body: definition.transform ? definition.transform(body, params as never) : body };
  }

  baseUrlFor(integration: RegisteredIntegration, state: IntegrationState, meta: Readonly<Record<string, unknown>>): string {
    const override = this.baseUrlOverrides[integration.service] ?? state.baseUrl;
    if (override) return override;
    const base = integration.plugin.upstream.baseUrl;
    return typeof base === 'function' ? base(meta) : base;
  }

  private async send(
    integration: RegisteredIntegration,
    operation: RegisteredOperation,
    request: UpstreamRequest,
    baseUrl: string,
    credentials: Credentials,
    settings: Record<string, unknown>,
  ): Promise<UpstreamResponse> {
    const upstream = integration.plugin.upstream;
    const absolute = request.url !== undefined;
    if (absolute) assertHttpUrl(request.url as string, 'upstream url');
    const withAuth = request.auth ?? !absolute;
    const headers = {
      ...upstream.headers?.(settings),
      ...(withAuth ? (upstream.authHeaders?.(credentials) ?? { authorization: `Bearer ${credentials.accessToken}` }) : {}),
      ...request.headers,
    };
    const url = request.url ?? `${baseUrl.replace(/\/+$/, '')}${request.path ?? ''}`;
    const response = await this.client.send({ ...request, url, headers });
    const failure = upstream.inspect ? upstream.inspect(response) : defaultInspect(response);
    if (failure) {
      const error = upstreamError(integration.plugin.displayName, failure, response);
      this.logger.warn(
        { service: integration.service, operation: operation.name, upstreamStatus: response.status, code: error.code },
        'upstream answered with an error',
      );
      throw error;
    }
    return response;
  }

  // ---- audit ---------------------------------------------------------------------------------------------------

  async flushAudit(): Promise<void> {
    const batch = this.auditQueue;
    if (batch.length === 0) return this.auditFlushing;
    this.auditQueue = [];
    this.auditFlushing = this.auditFlushing
      .then(() => this.store.appendAudit(batch))
      .catch((error) => this.logger.warn({ err: errorSummary(error), records: batch.length }, 'could not write audit records'));
    return this.auditFlushing;
  }

  async close(): Promise<void> {
    this.unsubscribe();
    clearInterval(this.auditTimer);
    await this.flushAudit();
    this.client.close();
  }
}

const DEFAULT_WORKSPACE_ID = 'default';

function needsRefresh(credentials: Credentials): boolean {
  return Boolean(credentials.refreshToken && credentials.expiresAt && Date.parse(credentials.expiresAt) - Date.now() < REFRESH_MARGIN_MS);
}

export function connectionAad(workspaceId: string, service: string): string {
  return `portico/connection/${workspaceId}/${service}`;
}

function assertHttpUrl(value: string, what: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new GatewayError('bad_request', `${what} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GatewayError('bad_request', `${what} must be http or https`);
}

/** Declarative mapping: path tokens from params; the rest to the query (GET, DELETE) or the JSON body. */
export function buildDeclarative(upstream: DeclarativeUpstream, params: Record<string, unknown>): UpstreamRequest {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) values[upstream.rename?.[key] ?? key] = value;
  }
  const inPath = new Set(pathTokens(upstream.path));
  const inQuery = new Set(upstream.query ?? []);
  const bodyMethod = upstream.method === 'POST' || upstream.method === 'PATCH' || upstream.method === 'PUT';
  const query: Record<string, QueryValue> = { ...upstream.fixedQuery };
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (inPath.has(key)) continue;
    if (bodyMethod && !inQuery.has(key)) body[key] = value;
    else query[key] = toQueryValue(value);
  }
  return {
    method: upstream.method,
    path: fillPath(upstream.path, values),
    ...(Object.keys(query).length > 0 ? { query } : {}),
    ...(bodyMethod ? { body } : {}),
  };
}

export function toQueryValue(value: unknown): QueryValue {
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean)));
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return value as string | number | boolean;
}

function defaultInspect(response: UpstreamResponse): UpstreamFailure | undefined {
  if (response.status >= 200 && response.status < 300) return undefined;
  return { status: response.status, message: messageFromBody(response.body) ?? '' };
}

/** Best-effort human message from an upstream error body. */
export function messageFromBody(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim() ? body.trim().slice(0, MAX_MESSAGE) : undefined;
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'error', 'detail', 'title']) {
    const value = b[key];
    if (typeof value === 'string' && value.trim()) return value.slice(0, MAX_MESSAGE);
    if (typeof value === 'object' && value !== null) {
      const nested = messageFromBody(value);
      if (nested) return nested;
    }
  }
  if (Array.isArray(b.errors) && b.errors.length > 0) return messageFromBody(b.errors[0]);
  return undefined;
}

function upstreamError(displayName: string, failure: UpstreamFailure, response: UpstreamResponse): GatewayError {
  const code = codeForUpstreamStatus(failure.status);
  const detail = failure.message ? `: ${failure.message.slice(0, MAX_MESSAGE)}` : '';
  const options = { upstreamStatus: response.status, retryAfter: failure.retryAfter ?? retryAfterSeconds(response.headers) };
  switch (code) {
    case 'bad_request':
      return new GatewayError(code, `${displayName} rejected the request${detail}`, options);
    case 'upstream_unauthorized':
      return new GatewayError(
        code,
        `${displayName} rejected the stored credentials (${failure.status})${detail}; reconnect the integration`,
        options,
      );
    case 'not_found':
      return new GatewayError(code, `${displayName} found no such record${detail}`, options);
    case 'conflict':
      return new GatewayError(code, `${displayName} reported a conflict${detail}`, options);
    case 'rate_limited':
      return new GatewayError(code, `${displayName} is rate limiting this connection${detail}`, options);
    default:
      return new GatewayError(code, `${displayName} failed (${failure.status})${detail}`, options);
  }
}

function errorSummary(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
