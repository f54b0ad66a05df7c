import type { Credentials, TokenSet } from '../contract/plugin.js';
import { type RegisteredIntegration, type Registry, requireIntegration } from '../contract/registry.js';
import { errorSummary, GatewayError, toGatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import { SETTINGS_CACHE_MS } from '../store/changes.js';
import { DatabaseOutage } from '../store/outage.js';
import type { AuditRecord, ConnectionRecord, Store } from '../store/types.js';
import type { UpstreamClient } from '../upstream/client.js';
import { storeSpan } from '../upstream/spans.js';
import type { TraceContext } from '../upstream/trace-context.js';
import { connectionAad, connectionLockName, credentialKey } from './connection-keys.js';
import type { KeyRing } from './key-ring.js';
import type { OAuthClients } from './oauth-clients.js';
import { InvalidGrantError, requestToken, revokeToken } from './oauth-protocol.js';
import { type ReencryptionReport, reencryptConnections } from './reencrypt.js';

export { connectionAad } from './connection-keys.js';
export type { ReencryptionReport } from './reencrypt.js';

/** Refresh an access token when it expires within this margin. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

type Loaded = { credentials: Credentials; record: ConnectionRecord };

/**
 * Where connection events (an OAuth connect, a token refresh) are audited: the pipeline's audit log, which sits above
 * connections and is handed in, so that this layer needs only the one method it calls.
 */
export interface ConnectionAudit {
  event(
    workspaceId: string,
    keyId: string | null,
    service: string,
    operation: string,
    protocol: AuditRecord['protocol'],
    status: number,
    code: string | null,
  ): void;
}

interface ConnectionsOptions {
  registry: Registry;
  store: Store;
  logger: Logger;
  keys: KeyRing;
  client: UpstreamClient;
  oauthClients: OAuthClients;
  audit: ConnectionAudit;
}

/**
 * Stored connections: their credentials encrypted at rest, decrypted (and cached) for calls, refreshed before they
 * expire, revoked on disconnect and re-encrypted after a key rotation.
 */
export class Connections {
  private readonly registry: Registry;
  private readonly store: Store;
  private readonly logger: Logger;
  private readonly keys: KeyRing;
  private readonly client: UpstreamClient;
  private readonly oauthClients: OAuthClients;
  private readonly audit: ConnectionAudit;
  /** In-process single flight: one refresh per connection at a time, however many calls wait for it. */
  private readonly refreshing = new Map<string, Promise<Loaded>>();
  /** Decrypted credentials by connection: dropped on change notifications (`forget`), else after SETTINGS_CACHE_MS. */
  private readonly credentialCache = new Map<string, { value: Loaded; expires: number }>();
  /** Members known to have no personal connection of a service (same lifetime): a member's call costs no lookup. */
  private readonly noPersonal = new Map<string, number>();

  /** Told of every connection stored (the engine asks whom it acts as); resolves with the record as it stands then. */
  afterSave: ((record: ConnectionRecord) => Promise<ConnectionRecord>) | undefined;

  outage = new DatabaseOutage(); // degraded mode (store/outage.ts): the engine sets its own
  constructor(options: ConnectionsOptions) {
    this.registry = options.registry;
    this.store = options.store;
    this.logger = options.logger;
    this.keys = options.keys;
    this.client = options.client;
    this.oauthClients = options.oauthClients;
    this.audit = options.audit;
  }

  /**
   * Stores a token-type credential (an API key or a non-expiring token pasted by an operator), as the workspace's
   * shared connection or (with `memberId`) as that member's own.
   */
  async connectToken(
    workspaceId: string,
    service: string,
    token: string,
    meta: Record<string, unknown> = {},
    memberId: string | null = null,
  ): Promise<ConnectionRecord> {
    requireIntegration(this.registry, service);
    if (!token.trim()) throw new GatewayError('bad_request', 'The token is empty');
    return this.save(workspaceId, service, 'token', { accessToken: token.trim() }, meta, memberId);
  }

  async save(
    workspaceId: string,
    service: string,
    kind: ConnectionRecord['kind'],
    credentials: Credentials,
    meta: Record<string, unknown> = {},
    memberId: string | null = null,
  ): Promise<ConnectionRecord> {
    const now = new Date().toISOString();
    const existing = await this.store.getConnection(workspaceId, service, memberId);
    const record = await this.store.putConnection({
      workspaceId,
      service,
      memberId,
      kind,
      secret: this.keys.current.encrypt(JSON.stringify(credentials), connectionAad(workspaceId, service, memberId)),
      meta,
      status: 'active',
      expiresAt: credentials.expiresAt ?? null,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    });
    if (!this.afterSave) return record;
    this.forget(workspaceId, service); // the credentials just stored, not a cached earlier connection's
    return this.afterSave(record);
  }

  /**
   * Deletes a connection; an OAuth connection's token is revoked upstream first where the provider supports it.
   * A failed revocation does not keep the credentials here (the operator asked for them to go): it is reported back.
   */
  async disconnect(
    workspaceId: string,
    service: string,
    memberId: string | null = null,
  ): Promise<{ deleted: boolean; revoked: boolean | null; revokeError?: string }> {
    const record = await this.store.getConnection(workspaceId, service, memberId);
    if (!record) return { deleted: false, revoked: null };
    let revoked: boolean | null = null;
    let revokeError: string | undefined;
    const integration = this.registry.get(service);
    if (record.kind === 'oauth2' && integration?.plugin.auth.oauth2?.revokeUrl && this.oauthClients.configured(service)) {
      try {
        const credentials = this.decryptCredentials(record);
        await revokeToken(this.client, this.oauthClients.client(integration, Boolean(record.memberId)), credentials);
        revoked = true;
      } catch (error) {
        revoked = false;
        revokeError = toGatewayError(error).code === 'internal_error' ? 'the provider could not be reached' : (error as Error).message;
        this.logger.warn({ service, workspaceId, reason: revokeError }, 'could not revoke the token upstream; deleting it here anyway');
      }
    }
    const deleted = await this.store.deleteConnection(workspaceId, service, memberId);
    this.forget(workspaceId, service);
    return { deleted, revoked, ...(revokeError ? { revokeError } : {}) };
  }

  /**
   * Disconnects every personal connection of a member (they are leaving the workspace): each token is revoked upstream
   * where the provider allows, and deleted here whatever the provider says. Returns the services disconnected.
   */
  async disconnectMember(workspaceId: string, memberId: string): Promise<string[]> {
    const services: string[] = [];
    for (const record of await this.store.listMemberConnections(workspaceId, memberId)) {
      if ((await this.disconnect(workspaceId, record.service, memberId)).deleted) services.push(record.service);
    }
    return services;
  }

  /**
   * The cached credentials when fresh and not due for a refresh, else undefined (then {@link credentialsFor}).
   * `memberId`: a member's personal connection; absent or null: the shared one.
   */
  cachedCredentials(integration: RegisteredIntegration, workspaceId: string, memberId?: string | null): Loaded | undefined {
    const cached = this.credentialCache.get(credentialKey(workspaceId, integration.service, memberId));
    return cached && cached.expires > Date.now() && !needsRefresh(cached.value.credentials) ? cached.value : undefined;
  }

  /**
   * The connection's credentials, refreshed first when the access token expires within REFRESH_MARGIN_MS.
   * `trace`: the call's, carried by a refresh this starts (the token request's `traceparent`). `memberId`: a member's
   * personal connection; absent or null: the shared one.
   */
  async credentialsFor(
    integration: RegisteredIntegration,
    workspaceId: string,
    trace?: TraceContext,
    memberId?: string | null,
  ): Promise<Loaded> {
    const key = credentialKey(workspaceId, integration.service, memberId);
    const cached = this.credentialCache.get(key);
    const load = () => this.loadCredentials(workspaceId, integration.service, memberId ?? null);
    const loaded = await this.outage.through('connection lookup', cached, load); // degraded mode: memory while the database is down
    if (!cached || cached.value !== loaded) this.credentialCache.set(key, { value: loaded, expires: Date.now() + SETTINGS_CACHE_MS });
    if (!needsRefresh(loaded.credentials)) return loaded;
    let flight = this.refreshing.get(key);
    if (!flight) {
      flight = this.refresh(integration, workspaceId, undefined, trace, memberId ?? null).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, flight);
    }
    return flight;
  }

  /**
   * Whether a member has a personal connection of a service: known ones from the cache, absent ones remembered for as
   * long as credentials are (a connection made elsewhere is seen through the change notification, or after that time).
   * A personal connection that needs re-authorization counts: the member is told so rather than silently acting as
   * someone else.
   */
  async hasPersonal(workspaceId: string, service: string, memberId: string): Promise<boolean> {
    const key = credentialKey(workspaceId, service, memberId);
    const cached = this.credentialCache.get(key);
    if (cached && cached.expires > Date.now()) return true;
    const absent = this.noPersonal.get(key);
    if (absent !== undefined && absent > Date.now()) return false;
    const record = await storeSpan('connection lookup', () => this.store.getConnection(workspaceId, service, memberId));
    if (record) {
      this.noPersonal.delete(key);
      return true;
    }
    this.noPersonal.set(key, Date.now() + SETTINGS_CACHE_MS);
    return false;
  }

  /** Whether a member is known (cached) to have no personal connection of a service: undefined when not known. */
  cachedHasPersonal(workspaceId: string, service: string, memberId: string): boolean | undefined {
    const key = credentialKey(workspaceId, service, memberId);
    const cached = this.credentialCache.get(key);
    if (cached && cached.expires > Date.now()) return true;
    const absent = this.noPersonal.get(key);
    return absent !== undefined && absent > Date.now() ? false : undefined;
  }

  /**
   * The upstream refused `rejected`'s access token (401) before it expired (revoked early, or one the provider gave no
   * lifetime): one refresh, shared by every call that saw the same rejection — in this process the in-flight refresh,
   * across instances the connection lock, behind which a connection whose version moved on (someone refreshed or
   * reconnected it meanwhile) is taken as it is. Throws `not_connected` (and marks the connection `needs_reconnect`)
   * when the provider refuses the refresh token. Only for credentials with a refresh token.
   */
  async refreshRejected(integration: RegisteredIntegration, workspaceId: string, rejected: Loaded, trace?: TraceContext): Promise<Loaded> {
    const memberId = rejected.record.memberId ?? null;
    const key = credentialKey(workspaceId, integration.service, memberId);
    let flight = this.refreshing.get(key);
    if (!flight) {
      flight = this.refresh(integration, workspaceId, rejected.record.version, trace, memberId).finally(() => this.refreshing.delete(key));
      this.refreshing.set(key, flight);
    }
    const loaded = await flight;
    this.credentialCache.set(key, { value: loaded, expires: Date.now() + SETTINGS_CACHE_MS });
    return loaded;
  }

  /**
   * Drops the cached credentials of a service's connections (shared and personal), or of all (`'*'`), after a change
   * notification.
   */
  forget(workspaceId: string, service: string): void {
    if (service === '*') {
      this.credentialCache.clear();
      this.noPersonal.clear();
      return;
    }
    const prefix = credentialKey(workspaceId, service, null);
    for (const cache of [this.credentialCache, this.noPersonal]) {
      for (const key of cache.keys()) if (key.startsWith(prefix)) cache.delete(key);
    }
  }

  /** Re-encrypts every connection under the active key after a rotation, while the gateway serves (./reencrypt.ts). */
  reencryptAll(): Promise<ReencryptionReport> {
    return reencryptConnections(this.store, this.keys);
  }

  private async loadCredentials(workspaceId: string, service: string, memberId: string | null): Promise<Loaded> {
    const record = await storeSpan('connection lookup', () => this.store.getConnection(workspaceId, service, memberId));
    if (!record && memberId) {
      throw new GatewayError(
        'not_connected',
        `You have not connected your own ${service} account: connect it in the dashboard (Connections)`,
      );
    }
    if (record?.status === 'needs_reconnect' && memberId) {
      throw new GatewayError(
        'not_connected',
        `Your own ${service} connection was refused by the provider and must be authorized again: reconnect it in the dashboard (Connections)`,
      );
    }
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
    const aad = connectionAad(record.workspaceId, record.service, record.memberId);
    try {
      return JSON.parse(this.keys.for(record.secret).decrypt(record.secret, aad)) as Credentials;
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
   * With `rejectedVersion` (the upstream refused that version's access token), the refresh is due whatever the expiry
   * says, unless the stored connection is no longer that version.
   */
  private async refresh(
    integration: RegisteredIntegration,
    workspaceId: string,
    rejectedVersion?: number,
    trace?: TraceContext,
    memberId: string | null = null,
  ): Promise<Loaded> {
    const service = integration.service;
    return this.store.withConnectionLock(workspaceId, connectionLockName(service, memberId), async () => {
      const current = await this.loadCredentials(workspaceId, service, memberId);
      const due =
        rejectedVersion === undefined
          ? needsRefresh(current.credentials)
          : current.record.version === rejectedVersion && Boolean(current.credentials.refreshToken);
      if (!due) return current;
      const client = this.oauthClients.client(integration, memberId !== null);
      let tokens: TokenSet;
      try {
        ({ tokens } = await requestToken(
          this.client,
          client,
          { grant_type: 'refresh_token', refresh_token: current.credentials.refreshToken as string },
          trace,
        ));
      } catch (error) {
        if (!(error instanceof InvalidGrantError)) {
          // The provider could not be reached or failed: the connection stays as it is, and the next call tries again.
          const failure = toGatewayError(error);
          this.audit.event(workspaceId, null, service, 'oauth_refresh', 'admin', failure.status, failure.code);
          throw error;
        }
        await this.store.swapConnection(
          { ...current.record, status: 'needs_reconnect', updatedAt: new Date().toISOString() },
          current.record.version,
        );
        this.logger.warn({ service, workspaceId }, 'refresh token refused (invalid_grant); the connection needs to be authorized again');
        this.audit.event(workspaceId, null, service, 'oauth_refresh', 'admin', 424, 'not_connected');
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
          secret: this.keys.current.encrypt(JSON.stringify(credentials), connectionAad(workspaceId, service, memberId)),
          expiresAt: credentials.expiresAt ?? null,
          status: 'active',
          updatedAt: new Date().toISOString(),
        },
        current.record.version,
      );
      if (!saved) {
        // Someone wrote the connection while we held the lock (an operator reconnecting): theirs is newer.
        return this.loadCredentials(workspaceId, service, memberId);
      }
      this.audit.event(workspaceId, null, service, 'oauth_refresh', 'admin', 200, null);
      return { credentials, record: saved };
    });
  }
}

function needsRefresh(credentials: Credentials): boolean {
  return Boolean(credentials.refreshToken && credentials.expiresAt && Date.parse(credentials.expiresAt) - Date.now() < REFRESH_MARGIN_MS);
}
