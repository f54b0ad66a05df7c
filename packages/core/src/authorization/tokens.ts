import type { Principal } from '../access/api-keys.js';
import { memberScopes } from '../access/members.js';
import { widerThan } from '../access/powers.js';
import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { GrantRecord } from '../store/authorization-types.js';
import { DatabaseOutage } from '../store/outage.js';
import type { Store } from '../store/types.js';
import type { AUTHORIZATION_DEFAULTS } from './options.js';
import {
  ACCESS_TOKEN_PREFIX,
  isGatewayResource,
  newSecret,
  OAuthError,
  REFRESH_TOKEN_PREFIX,
  sha256Hex,
  verifierMatches,
} from './protocol.js';
import { scopeString } from './scopes.js';

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  /** What the grant allows, as OAuth scopes (`clio:read clio:write notion:read`). */
  scope: string;
}

/** The token endpoint's form: one value per field. */
export type TokenForm = Readonly<Record<string, string | undefined>>;

const TOUCH_INTERVAL_MS = 60_000;
const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

/**
 * Tokens: a code exchanged once (a replay revokes the grant and so every token it produced), refresh tokens rotated on
 * every use (a replay of a used one revokes the grant: the whole family), revocation, and `authenticate`, which turns
 * an access token into the grant's principal. Nothing is cached: a token is looked up with its grant on every request,
 * so that a revoke on one instance ends it on every instance sharing the database at once.
 */
export class Tokens {
  private readonly touched = new Map<string, number>();

  /** Degraded mode (store/outage.ts): the engine sets its own. */
  outage = new DatabaseOutage();
  /** Access tokens that authenticated, by hash, to answer from while the database does not (bounded). */
  private readonly known = new Map<string, { principal: Principal; until: number }>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly options: typeof AUTHORIZATION_DEFAULTS,
    /** The installed services, for the scope strings of token responses. */
    private readonly services: () => readonly string[] = () => [],
  ) {}

  async exchange(form: TokenForm, publicUrl: string, now = Date.now()): Promise<TokenResponse> {
    const grantType = form.grant_type;
    if (grantType === 'authorization_code') return this.redeemCode(form, publicUrl, now);
    if (grantType === 'refresh_token') return this.refresh(form, publicUrl, now);
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  private async redeemCode(form: TokenForm, publicUrl: string, now: number): Promise<TokenResponse> {
    const { code, code_verifier: verifier, redirect_uri: redirectUri, client_id: clientId } = form;
    if (!code || !clientId || !redirectUri) throw new OAuthError('invalid_request', 'code, client_id and redirect_uri are required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    const at = new Date(now).toISOString();
    const consumed = await this.store.authorization.consumeCode(sha256Hex(code), at);
    if (!consumed) throw invalidGrant('The code is not valid');
    const record = consumed.record;
    if (consumed.reused) {
      // A code used twice was stolen or replayed: what it produced must not outlive it (RFC 6749 §4.1.2).
      await this.store.authorization.revokeGrant(record.workspaceId, record.grantId, at);
      this.logger.warn({ grantId: record.grantId }, 'authorization code reused: grant revoked');
      throw invalidGrant('The code is not valid');
    }
    if (Date.parse(record.expiresAt) <= now) throw invalidGrant('The code expired');
    if (record.clientId !== clientId) throw invalidGrant('The code was issued to another client');
    if (record.redirectUri !== redirectUri) throw invalidGrant('redirect_uri differs from the authorization request');
    if (!verifierMatches(verifier, record.challenge)) throw invalidGrant('The code verifier does not match the challenge');
    const grant = await this.liveGrant(record.grantId, now);
    this.checkResource(form.resource, grant, publicUrl);
    return this.issue(grant, now);
  }

  private async refresh(form: TokenForm, publicUrl: string, now: number): Promise<TokenResponse> {
    const { refresh_token: refreshToken, client_id: clientId } = form;
    if (!refreshToken || !clientId) throw new OAuthError('invalid_request', 'refresh_token and client_id are required');
    if (!refreshToken.startsWith(REFRESH_TOKEN_PREFIX)) throw invalidGrant('The refresh token is not valid');
    const at = new Date(now).toISOString();
    const consumed = await this.store.authorization.consumeRefreshToken(sha256Hex(refreshToken), at);
    if (!consumed) throw invalidGrant('The refresh token is not valid');
    if (consumed.reused) {
      // A rotated refresh token came back: one of two holders is not the client. End the family: the grant.
      await this.store.authorization.revokeGrant(consumed.record.workspaceId, consumed.record.grantId, at);
      this.logger.warn({ grantId: consumed.record.grantId }, 'refresh token reused: grant revoked');
      throw invalidGrant('The refresh token is not valid');
    }
    if (Date.parse(consumed.record.expiresAt) <= now) throw invalidGrant('The refresh token expired');
    const grant = await this.liveGrant(consumed.record.grantId, now);
    if (grant.clientId !== clientId) throw invalidGrant('The refresh token was issued to another client');
    this.checkResource(form.resource, grant, publicUrl);
    return this.issue(grant, now);
  }

  /** RFC 7009: ends the token's grant (its access and refresh tokens alike). Unknown tokens are no error. */
  async revoke(form: TokenForm, now = Date.now()): Promise<void> {
    const value = form.token;
    if (!value) throw new OAuthError('invalid_request', 'token is required');
    if (!value.startsWith(ACCESS_TOKEN_PREFIX) && !value.startsWith(REFRESH_TOKEN_PREFIX)) return;
    const found = await this.store.authorization.findToken(sha256Hex(value));
    if (!found) return;
    if (form.client_id && form.client_id !== found.grant.clientId) return;
    await this.store.authorization.revokeGrant(found.grant.workspaceId, found.grant.id, new Date(now).toISOString());
  }

  /** Whether a bearer value is one of this server's access tokens (else it is for the API keys). */
  static isAccessToken(token: string): boolean {
    return token.startsWith(ACCESS_TOKEN_PREFIX);
  }

  /** An access token → the grant's principal; `unauthorized` for anything else, one message for every failure. */
  async authenticate(token: string, publicUrl: string | undefined, now = Date.now()): Promise<Principal> {
    const reject = () => new GatewayError('unauthorized', 'The access token is not valid: authorize again');
    if (token.length > 200) throw reject();
    const hash = sha256Hex(token);
    // The database down: a token that authenticated before still does until it expires (degraded mode); others get 503.
    return this.outage.read(
      'access token lookup',
      () => this.lookup(hash, publicUrl, now, reject),
      () => {
        const known = this.known.get(hash);
        return known && known.until > Date.now() ? { value: known.principal } : undefined;
      },
    );
  }

  private async lookup(hash: string, publicUrl: string | undefined, now: number, reject: () => GatewayError): Promise<Principal> {
    this.known.delete(hash);
    const found = await this.store.authorization.findToken(hash);
    if (found?.token.kind !== 'access' || Date.parse(found.token.expiresAt) <= now) throw reject();
    const { grant } = found;
    if (grant.revokedAt || (grant.expiresAt && Date.parse(grant.expiresAt) <= now)) throw reject();
    // Audience (RFC 8707): a token another gateway issued into a shared database is not good here.
    if (!publicUrl || !isGatewayResource(grant.resource, publicUrl)) throw reject();
    const approverProblem = await this.approverProblem(grant, now);
    if (approverProblem) {
      this.logger.info({ grantId: grant.id, why: approverProblem }, 'grant refused: its approver no longer stands behind it');
      throw reject();
    }
    this.touch(grant.id, now);
    const principal: Principal = {
      keyId: grant.id,
      workspaceId: grant.workspaceId,
      scopes: { ...grant.scopes, admin: false, operator: false },
      memberId: grant.memberId,
      via: 'grant',
    };
    if (this.known.size >= 10_000) this.known.clear();
    const until = Math.min(Date.parse(found.token.expiresAt), grant.expiresAt ? Date.parse(grant.expiresAt) : Number.POSITIVE_INFINITY);
    this.known.set(hash, { principal, until });
    return principal;
  }

  /**
   * Why the grant's approver no longer stands behind it, or undefined: a grant is never more than whoever approved it
   * is now. The member it acts for was removed, or narrowed below it; the admin key that approved it was revoked,
   * expired or narrowed below it.
   */
  private async approverProblem(grant: GrantRecord, now: number): Promise<string | undefined> {
    if (grant.memberId) {
      const member = await this.store.members.get(grant.workspaceId, grant.memberId);
      if (!member) return 'its member was removed';
      const why = widerThan({ keyId: member.id, workspaceId: member.workspaceId, scopes: memberScopes(member) }, grant.scopes);
      return why && `it is wider than its member now: ${why}`;
    }
    if (!grant.createdBy) return undefined; // made by the CLI or by a release before grants named their approver
    const key = await this.store.getApiKey(grant.workspaceId, grant.createdBy);
    if (!key) return undefined; // an approver that is no key (a release before members) is not checked
    if (key.revokedAt) return 'the key that approved it was revoked';
    if (key.expiresAt && Date.parse(key.expiresAt) <= now) return 'the key that approved it expired';
    const why = widerThan({ keyId: key.id, workspaceId: key.workspaceId, scopes: key.scopes }, grant.scopes);
    return why && `it is wider than the key that approved it: ${why}`;
  }

  private async liveGrant(id: string, now: number): Promise<GrantRecord> {
    const grant = await this.store.authorization.getGrant(id);
    if (!grant || grant.revokedAt) throw invalidGrant('The grant was revoked');
    if (grant.expiresAt && Date.parse(grant.expiresAt) <= now) throw invalidGrant('The grant expired');
    return grant;
  }

  private checkResource(resource: string | undefined, grant: GrantRecord, publicUrl: string): void {
    if (resource !== undefined && (resource !== grant.resource || !isGatewayResource(resource, publicUrl))) {
      throw new OAuthError('invalid_target', 'The resource differs from the one authorized');
    }
  }

  private async issue(grant: GrantRecord, now: number): Promise<TokenResponse> {
    const access = newSecret(ACCESS_TOKEN_PREFIX);
    const refresh = newSecret(REFRESH_TOKEN_PREFIX);
    const at = new Date(now).toISOString();
    const base = { grantId: grant.id, workspaceId: grant.workspaceId, createdAt: at, usedAt: null };
    let accessEnd = now + this.options.accessTokenTtlMs;
    let refreshEnd = now + this.options.refreshTokenTtlMs;
    if (grant.expiresAt) {
      accessEnd = Math.min(accessEnd, Date.parse(grant.expiresAt));
      refreshEnd = Math.min(refreshEnd, Date.parse(grant.expiresAt));
    }
    await this.store.authorization.createToken({
      ...base,
      hash: sha256Hex(access),
      kind: 'access',
      expiresAt: new Date(accessEnd).toISOString(),
    });
    await this.store.authorization.createToken({
      ...base,
      hash: sha256Hex(refresh),
      kind: 'refresh',
      expiresAt: new Date(refreshEnd).toISOString(),
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.max(1, Math.floor((accessEnd - now) / 1000)),
      refresh_token: refresh,
      scope: scopeString(grant.scopes, this.services()),
    };
  }

  /** last_used_at of a grant is written at most once a minute, off the request path. */
  private touch(id: string, now: number): void {
    if ((this.touched.get(id) ?? 0) + TOUCH_INTERVAL_MS > now) return;
    if (this.touched.size >= 10_000) this.touched.clear();
    this.touched.set(id, now);
    this.store.authorization.touchGrant(id, new Date(now).toISOString()).catch((error) => {
      this.logger.warn({ err: error, grantId: id }, 'could not record grant use');
    });
  }
}
