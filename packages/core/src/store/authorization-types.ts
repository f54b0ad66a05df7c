import type { KeyScopes } from './scopes.js';

/**
 * The built-in OAuth 2.1 authorization server's records (store/authorization-sql.ts): the clients that asked for
 * access, the grants an admin consented to, and the codes and tokens issued under them. Codes and tokens are kept
 * only as SHA-256 hashes, like API keys.
 */

/** A client: registered by Dynamic Client Registration (`dcr`) or known by its Client ID Metadata Document URL (`cimd`). */
export interface OAuthClientRecord {
  clientId: string;
  kind: 'dcr' | 'cimd';
  /** The name the client gave (`client_name`), shown on the consent page; never trusted for anything else. */
  name: string;
  /** The redirect URIs it registered; an authorization request must name one of them exactly. */
  redirectUris: string[];
  createdAt: string;
  /** When a grant last named this client (null: never used). */
  lastUsedAt: string | null;
  /** A registration nobody consented to is deleted after this (`pruneClients`); null: kept. */
  expiresAt: string | null;
}

/** A grant: what an admin allowed one client to do in one workspace. A principal like an API key. */
export interface GrantRecord {
  /** `grant_…`: also the principal's key id, so the audit log names the grant. */
  id: string;
  workspaceId: string;
  clientId: string;
  clientName: string;
  /** As an API key's, never admin. */
  scopes: KeyScopes;
  /** The resource (RFC 8707) the grant's tokens are for: this gateway's MCP or REST URL. */
  resource: string;
  /** The key or member whose dashboard session consented. */
  createdBy: string | null;
  /** The person the grant acts for (a member who consented for themselves); null: a grant an admin key approved. */
  memberId: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** An authorization code: single use, short-lived, bound to its client, redirect URI, PKCE challenge and grant. */
export interface AuthorizationCodeRecord {
  /** SHA-256 of the code, hex. */
  codeHash: string;
  grantId: string;
  workspaceId: string;
  clientId: string;
  redirectUri: string;
  /** The S256 code challenge. */
  challenge: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

/** An access or refresh token of a grant. The refresh tokens of one grant form its family: reuse of a used one revokes the grant. */
export interface OAuthTokenRecord {
  /** SHA-256 of the token, hex. */
  hash: string;
  grantId: string;
  workspaceId: string;
  kind: 'access' | 'refresh';
  createdAt: string;
  expiresAt: string;
  /** A refresh token is used once (rotated); null while unused. */
  usedAt: string | null;
}

/** What consuming a code or refresh token found: the record, and whether it had been used before (a replay). */
export interface Consumed<T> {
  record: T;
  reused: boolean;
}

export interface AuthorizationTables {
  /** Inserts or replaces a client (a CIMD client is refreshed when its document is fetched again). */
  putClient(record: OAuthClientRecord): Promise<void>;
  getClient(clientId: string): Promise<OAuthClientRecord | undefined>;
  /** Marks a client used: it no longer expires. */
  touchClient(clientId: string, at: string): Promise<void>;
  /** Deletes the registrations past their expiry that no grant names; how many. */
  pruneClients(now: string): Promise<number>;

  createGrant(record: GrantRecord): Promise<void>;
  getGrant(id: string): Promise<GrantRecord | undefined>;
  /** The grants of a workspace, newest first. */
  listGrants(workspaceId: string): Promise<GrantRecord[]>;
  /** Revokes a grant of a workspace (every token of it ends with it); false when there is none or it was revoked. */
  revokeGrant(workspaceId: string, id: string, at: string): Promise<boolean>;
  touchGrant(id: string, at: string): Promise<void>;

  createCode(record: AuthorizationCodeRecord): Promise<void>;
  /** Marks a code used in one atomic step; `reused` when it had been used before. Undefined: no such code. */
  consumeCode(codeHash: string, at: string): Promise<Consumed<AuthorizationCodeRecord> | undefined>;

  createToken(record: OAuthTokenRecord): Promise<void>;
  /** A token and its grant, by the token's hash. */
  findToken(hash: string): Promise<{ token: OAuthTokenRecord; grant: GrantRecord } | undefined>;
  /** Marks a refresh token used in one atomic step; `reused` when it had been used before. */
  consumeRefreshToken(hash: string, at: string): Promise<Consumed<OAuthTokenRecord> | undefined>;
}
