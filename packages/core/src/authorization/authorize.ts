import { randomUUID } from 'node:crypto';
import type { OAuthClientRecord } from '../store/authorization-types.js';
import type { KeyScopes } from '../store/scopes.js';
import type { Store } from '../store/types.js';
import type { ClientRegistry } from './clients.js';
import type { AUTHORIZATION_DEFAULTS } from './options.js';
import { CODE_PREFIX, isChallenge, isGatewayResource, newSecret, sha256Hex } from './protocol.js';

/** An authorization request that passed every check: what the consent page shows and what approving it binds. */
export interface AuthorizeRequest {
  client: OAuthClientRecord;
  redirectUri: string;
  challenge: string;
  state: string | null;
  /** The resource (RFC 8707) the tokens will be for: one of this gateway's. */
  resource: string;
  /** The `scope` parameter as the client sent it (`clio:read notion:write`), to pre-tick the consent page; null: none. */
  scope: string | null;
}

/**
 * The outcome of checking a request. Before the client and its redirect URI are known to be good, an error is shown
 * to the person (`show`): sending it to an unverified redirect URI would make the gateway an open redirector. After,
 * errors go back to the client (`redirect`), as RFC 6749 §4.1.2.1 says.
 */
export type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizeRequest }
  | { kind: 'show'; message: string }
  | { kind: 'redirect'; location: string };

/** What the signed-in person chose on the consent page (checked against their powers before it gets here). */
export interface Consent {
  workspaceId: string;
  scopes: Pick<KeyScopes, 'services' | 'readOnly' | 'toolSet' | 'writes'>;
  expiresAt: string | null;
  /** The key or member whose session consented. */
  createdBy: string | null;
  /** The member the grant acts for (they consented for themselves); absent or null: an admin key's grant. */
  memberId?: string | null;
}

const MAX_STATE = 1_000;

/** The request parameters: one value each; a repeated parameter is refused (RFC 6749 §3.1). */
export type AuthorizeParams = Readonly<Record<string, string | string[] | undefined>>;

export function errorRedirect(redirectUri: string, error: string, description: string, state: string | null): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error);
  url.searchParams.set('error_description', description);
  if (state !== null) url.searchParams.set('state', state);
  return url.href;
}

/** Authorization requests: checked (on the consent page and again when it is posted), approved, or denied. */
export class Authorizer {
  constructor(
    private readonly store: Store,
    private readonly clients: ClientRegistry,
    private readonly options: typeof AUTHORIZATION_DEFAULTS,
  ) {}

  async check(params: AuthorizeParams, publicUrl: string): Promise<AuthorizeCheck> {
    const one = (name: string): string | undefined | null => {
      const value = params[name];
      return Array.isArray(value) ? null : value;
    };
    const clientId = one('client_id');
    if (!clientId) return { kind: 'show', message: 'The request names no client (client_id).' };
    const found = await this.clients.resolve(clientId);
    if (typeof found === 'string') return { kind: 'show', message: found };
    const client = found;
    const redirectUri = one('redirect_uri');
    // Exact string comparison: no normalisation of case, port, path, trailing slash or user information.
    if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
      return { kind: 'show', message: 'The redirect URI is not one this client registered.' };
    }
    const state = one('state');
    if (state === null || (state !== undefined && state.length > MAX_STATE)) {
      return { kind: 'redirect', location: errorRedirect(redirectUri, 'invalid_request', 'state is repeated or too long', null) };
    }
    const fail = (error: string, description: string): AuthorizeCheck => ({
      kind: 'redirect',
      location: errorRedirect(redirectUri, error, description, state ?? null),
    });
    if (one('response_type') !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported');
    const challenge = one('code_challenge');
    if (!challenge) return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
    if (one('code_challenge_method') !== 'S256') return fail('invalid_request', 'Only the S256 code challenge method is supported');
    if (!isChallenge(challenge)) return fail('invalid_request', 'code_challenge is not a base64url SHA-256 value');
    const resource = one('resource');
    if (resource === null || (resource !== undefined && !isGatewayResource(resource, publicUrl))) {
      return fail('invalid_target', 'The resource is not this gateway');
    }
    const scope = one('scope');
    if (scope === null || (scope !== undefined && scope.length > 4_000)) return fail('invalid_scope', 'scope is repeated or too long');
    return {
      kind: 'ok',
      request: {
        client,
        redirectUri,
        challenge,
        state: state ?? null,
        resource: resource ?? publicUrl.replace(/\/+$/, ''),
        scope: scope ?? null,
      },
    };
  }

  /** Records the grant and a single-use code bound to it; answers where to send the browser. */
  async approve(request: AuthorizeRequest, consent: Consent, now = Date.now()): Promise<string> {
    const at = new Date(now).toISOString();
    const grantId = `grant_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await this.store.authorization.createGrant({
      id: grantId,
      workspaceId: consent.workspaceId,
      clientId: request.client.clientId,
      clientName: request.client.name,
      scopes: {
        admin: false,
        services: consent.scopes.services,
        readOnly: consent.scopes.readOnly,
        toolSet: consent.scopes.toolSet ?? null,
        ...(consent.scopes.writes ? { writes: consent.scopes.writes } : {}),
      },
      resource: request.resource,
      createdBy: consent.createdBy,
      memberId: consent.memberId ?? null,
      createdAt: at,
      lastUsedAt: null,
      expiresAt: consent.expiresAt,
      revokedAt: null,
    });
    await this.store.authorization.touchClient(request.client.clientId, at);
    const code = newSecret(CODE_PREFIX);
    await this.store.authorization.createCode({
      codeHash: sha256Hex(code),
      grantId,
      workspaceId: consent.workspaceId,
      clientId: request.client.clientId,
      redirectUri: request.redirectUri,
      challenge: request.challenge,
      createdAt: at,
      expiresAt: new Date(now + this.options.codeTtlMs).toISOString(),
      usedAt: null,
    });
    const url = new URL(request.redirectUri);
    url.searchParams.set('code', code);
    if (request.state !== null) url.searchParams.set('state', request.state);
    return url.href;
  }

  deny(request: AuthorizeRequest): string {
    return errorRedirect(request.redirectUri, 'access_denied', 'The request was declined', request.state);
  }
}
