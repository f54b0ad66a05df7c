import type { TokenSet } from '../contract/plugin.js';
import { type Registry, requireIntegration } from '../contract/registry.js';
import { GatewayError, toGatewayError } from '../errors.js';
import type { Store } from '../store/types.js';
import type { UpstreamClient } from '../upstream/client.js';
import { redactSecrets } from '../upstream/failures.js';
import { redactValues } from '../upstream/redact-values.js';
import type { ConnectionAudit, Connections } from './credentials.js';
import type { KeyRing } from './key-ring.js';
import type { OAuthClients } from './oauth-clients.js';
import { authorizeUrl, hashState, InvalidGrantError, newState, pkcePair, requestToken } from './oauth-protocol.js';

/** How long a started OAuth authorization may take. */
const OAUTH_STATE_TTL_MS = 10 * 60_000;

export interface OAuthStart {
  authorizeUrl: string;
  expiresAt: string;
}

export interface OAuthCompletion {
  service: string;
  workspaceId: string;
  /** The member whose own account was connected; null: the workspace's shared connection. */
  memberId: string | null;
  meta: Record<string, unknown>;
}

const DEFAULT_WORKSPACE_ID = 'default';

interface OAuthFlowOptions {
  registry: Registry;
  store: Store;
  keys: KeyRing;
  client: UpstreamClient;
  oauthClients: OAuthClients;
  connections: Pick<Connections, 'save'>;
  audit: ConnectionAudit;
}

/** The OAuth connect flow: the redirect to the provider, and the callback that stores the tokens. */
export class OAuthFlow {
  private readonly registry: Registry;
  private readonly store: Store;
  private readonly keys: KeyRing;
  private readonly client: UpstreamClient;
  private readonly oauthClients: OAuthClients;
  private readonly connections: Pick<Connections, 'save'>;
  private readonly audit: ConnectionAudit;

  constructor(options: OAuthFlowOptions) {
    this.registry = options.registry;
    this.store = options.store;
    this.keys = options.keys;
    this.client = options.client;
    this.oauthClients = options.oauthClients;
    this.connections = options.connections;
    this.audit = options.audit;
  }

  /**
   * Starts an authorization: a single-use state bound to the workspace and the key (or, for a personal connection, the
   * member connecting their own account), PKCE where the provider takes it.
   */
  async begin(workspaceId: string, service: string, keyId: string | null, memberId: string | null = null): Promise<OAuthStart> {
    const client = this.oauthClients.client(requireIntegration(this.registry, service), memberId !== null);
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
      memberId,
      verifier: pkce ? this.keys.current.encrypt(pkce.verifier, `portico/oauth-state/${stateHash}`) : null,
      redirectUri: client.redirectUri,
      createdAt: new Date(now).toISOString(),
      expiresAt,
      usedAt: null,
    });
    return { authorizeUrl: authorizeUrl(client, state, pkce?.challenge, memberId !== null), expiresAt };
  }

  /**
   * Finishes an authorization from the provider's redirect: the state must be known, unused and unexpired; the code is
   * exchanged server to server; tokens are stored encrypted with the provider's non-secret facts. Every outcome is audited.
   */
  async complete(service: string, query: Readonly<Record<string, string>>): Promise<OAuthCompletion> {
    const integration = requireIntegration(this.registry, service);
    const state = query.state ?? '';
    const secrets: string[] = [query.code ?? ''];
    const fail = (workspaceId: string, keyId: string | null, error: GatewayError): never => {
      this.audit.event(workspaceId, keyId, service, 'oauth_connect', 'admin', error.status, error.code);
      throw redacted(error, secrets);
    };
    if (!state)
      return fail(
        DEFAULT_WORKSPACE_ID,
        null,
        new GatewayError('bad_request', 'The provider sent no state: start the connection again from Portico'),
      );
    const stateHash = hashState(state);
    const record = await this.store.consumeOAuthState(stateHash, new Date().toISOString());
    if (!record || record.service !== service) {
      // A state carried to another service's callback is spent all the same; its outcome belongs to whoever started it.
      return fail(
        record?.workspaceId ?? DEFAULT_WORKSPACE_ID,
        record?.keyId ?? null,
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
          `Not connected: ${reason}${query.error_description ? ` (${redactSecrets(query.error_description.slice(0, 200))})` : ''}`,
        ),
      );
    }
    if (!query.code)
      return fail(record.workspaceId, record.keyId, new GatewayError('bad_request', 'The provider sent no authorization code'));
    const client = this.oauthClients.client(integration, Boolean(record.memberId));
    const grant: Record<string, string> = { grant_type: 'authorization_code', code: query.code, redirect_uri: record.redirectUri };
    if (record.verifier) grant.code_verifier = this.keys.current.decrypt(record.verifier, `portico/oauth-state/${stateHash}`);
    secrets.push(client.clientSecret, grant.code_verifier ?? '');
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
    secrets.push(tokens.accessToken, tokens.refreshToken ?? '');
    let meta: Record<string, unknown>;
    try {
      meta = client.settings.connectionFacts?.(query, body) ?? {};
      await this.connections.save(
        record.workspaceId,
        service,
        'oauth2',
        {
          accessToken: tokens.accessToken,
          ...(tokens.refreshToken ? { refreshToken: tokens.refreshToken } : {}),
          ...(tokens.expiresIn ? { expiresAt: new Date(Date.now() + tokens.expiresIn * 1000).toISOString() } : {}),
        },
        meta,
        record.memberId ?? null,
      );
    } catch (error) {
      // Even a failure after the exchange is an outcome of the flow: audited, and reported without the tokens.
      return fail(record.workspaceId, record.keyId, toGatewayError(error));
    }
    this.audit.event(record.workspaceId, record.keyId, service, 'oauth_connect', 'admin', 200, null);
    return { service, workspaceId: record.workspaceId, memberId: record.memberId ?? null, meta };
  }
}

/** Longest message of a failed authorization shown on the page (the provider's own words are cut here). */
const MAX_FAILURE_MESSAGE = 300;

/**
 * A failure as the browser sees it: what the flow sent or received (client secret, code, verifier, tokens) blanked out
 * wherever a provider echoed it back, and cut to a readable length.
 */
function redacted(error: GatewayError, secrets: readonly string[]): GatewayError {
  let message = error.message;
  message = redactValues(message, secrets); // as sent, URL-encoded, base64; and any Bearer, Basic or secret-named value
  if (message.length > MAX_FAILURE_MESSAGE) message = `${message.slice(0, MAX_FAILURE_MESSAGE - 1)}…`;
  if (message === error.message) return error;
  return new GatewayError(error.code, message, {
    ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
    ...(error.upstreamStatus === undefined ? {} : { upstreamStatus: error.upstreamStatus }),
  });
}
