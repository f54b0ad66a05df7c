import type { Principal } from '../access/api-keys.js';
import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import { SETTINGS_CACHE_MS } from '../store/changes.js';
import type { KeyScopes, Store } from '../store/types.js';
import { UpstreamClient } from '../upstream/client.js';
import type { EgressPolicy } from '../upstream/egress.js';
import { Jwks } from './jwks.js';
import { decodeJwt, isAllowedAlgorithm, JwtRefusal, verifyJwt } from './jwt.js';
import { gatewayResources } from './protocol.js';

/** An external identity provider (Entra ID, Okta, Keycloak…) whose JWT access tokens both doors take. */
export interface ExternalIssuerOptions {
  /** The provider's issuer (`iss` of its tokens), e.g. `https://login.example.com/realms/firm`. */
  issuer: string;
  /** What `aud` must name; default: the gateway's public URL or one of its doors (`/api/mcp`, `/api/v1`). */
  audience?: string | undefined;
  /** The JWKS address; default: `jwks_uri` of the issuer's OpenID Connect discovery document. */
  jwksUri?: string | undefined;
  /** The claim that says what the token may do (default `portico`; see `scopesFromClaim`). */
  claim?: string | undefined;
  /** Clock difference allowed on exp/nbf/iat, seconds (default 60). */
  skewSeconds?: number | undefined;
  /** How long fetched keys are kept, ms (default 10 minutes). */
  jwksCacheMs?: number | undefined;
  /** Fewest ms between two JWKS fetches on unknown `kid`s (default 30 s). */
  jwksRefetchFloorMs?: number | undefined;
}

const JWKS_TIMEOUT_MS = 5_000;
const JWKS_MAX_BYTES = 256 * 1024;
const MAX_SUBJECT = 128;
/** Subjects whose member is remembered at most (the map is emptied when full: a flood of subjects costs lookups, not memory). */
const MAX_REMEMBERED_MEMBERS = 10_000;

/**
 * Validates the external provider's JWTs (with `jose`) and maps them to principals: algorithm from the allow-list
 * (RS256, ES256), signature through the provider's JWKS (fetched through the egress policy), issuer, audience, expiry
 * and not-before with a small skew, then the documented claim to a workspace and scopes. Every refusal is the same `unauthorized`;
 * why is logged (without the token).
 */
export class ExternalIssuer {
  readonly issuer: string;
  private readonly jwks: Jwks;
  private readonly claim: string;
  private readonly skewSeconds: number;
  /** workspace + subject → the member who signed in as that subject, for a short time. */
  private readonly members = new Map<string, { memberId: string | null; expires: number }>();

  constructor(
    private readonly options: ExternalIssuerOptions,
    private readonly store: Store,
    private readonly logger: Logger,
    egress: EgressPolicy,
  ) {
    this.issuer = options.issuer;
    this.claim = options.claim ?? 'portico';
    this.skewSeconds = options.skewSeconds ?? 60;
    const client = new UpstreamClient({
      timeoutMs: JWKS_TIMEOUT_MS,
      retryLimit: 1,
      retryAfterCapMs: 0,
      maxResponseBytes: JWKS_MAX_BYTES,
      lookup: egress.lookup,
    });
    const get = async (url: string) => {
      egress.assertBaseUrl(url, 'The identity provider’s address', 'upstream_error');
      if (!/^https:\/\//i.test(url) && !isLoopbackHttp(url)) throw new Error('the identity provider’s keys must come over https');
      const response = await client.send({
        method: 'GET',
        url,
        headers: { accept: 'application/json' },
        upstreamName: 'The identity provider',
      });
      if (response.status !== 200) throw new Error(`the identity provider answered ${response.status}`);
      return response.body;
    };
    this.jwks = new Jwks(
      {
        issuer: options.issuer,
        jwksUri: options.jwksUri,
        cacheMs: options.jwksCacheMs ?? 10 * 60_000,
        refetchFloorMs: options.jwksRefetchFloorMs ?? 30_000,
      },
      get,
      logger,
    );
  }

  /**
   * The member of the workspace who signed in with this provider as `subject` (the person behind the token: their own
   * upstream accounts act for them), remembered for as long as settings are; null when nobody has.
   */
  private async memberOf(workspaceId: string, subject: string, now: number): Promise<string | null> {
    const key = `${workspaceId}\u0000${subject}`;
    const known = this.members.get(key);
    if (known && known.expires > now) return known.memberId;
    const found = (await this.store.members.findBySubject(this.issuer, subject)).find((m) => m.workspaceId === workspaceId);
    const memberId = found?.id ?? null;
    if (this.members.size >= MAX_REMEMBERED_MEMBERS) this.members.clear();
    this.members.set(key, { memberId, expires: now + SETTINGS_CACHE_MS });
    return memberId;
  }

  /** A JWT → the principal its claim describes; `unauthorized` (one message) for any failure. */
  async authenticate(token: string, publicUrl: string | undefined, now = Date.now()): Promise<Principal> {
    try {
      const jwt = decodeJwt(token);
      const alg = jwt.header.alg;
      if (!isAllowedAlgorithm(alg)) throw new JwtRefusal(`alg ${alg} is not accepted`);
      const keys = await this.jwks.candidates(jwt.header.kid, now);
      if (keys.length === 0) throw new JwtRefusal('no key of the JWKS has this kid');
      const audiences = this.options.audience ? [this.options.audience] : publicUrl ? gatewayResources(publicUrl) : [];
      const payload = await verifyJwt(jwt, alg, keys, { issuer: this.issuer, audiences, skewSeconds: this.skewSeconds, now });
      const { workspaceId, scopes } = scopesFromClaim(payload[this.claim]);
      if (!(await this.store.getWorkspace(workspaceId))) throw new JwtRefusal('the workspace does not exist');
      const subject = typeof payload.sub === 'string' ? payload.sub.slice(0, MAX_SUBJECT) : 'unknown';
      const memberId = typeof payload.sub === 'string' ? await this.memberOf(workspaceId, subject, now) : null;
      return { keyId: `idp:${subject}`, workspaceId, scopes, via: 'idp', ...(memberId ? { memberId } : {}) };
    } catch (error) {
      if (!(error instanceof JwtRefusal)) throw error;
      this.logger.info({ issuer: this.issuer, reason: error.message }, 'identity provider token refused');
      throw new GatewayError('unauthorized', 'The access token is not valid: authorize again');
    }
  }
}

function isLoopbackHttp(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
  } catch {
    return false;
  }
}

/**
 * The claim's entries (a space-separated string, or an array of strings such as a `roles` or `groups` claim):
 * `workspace:<id>` (exactly one; required), `tool_set:<id>` (at most one), `service:<name>` (any number; `service:*`
 * for every service), and `write` (without it the token may only read). Other entries are ignored, so the claim can be
 * one that also carries the firm's other roles. No service and no tool set: nothing may be called.
 */
export function scopesFromClaim(value: unknown): { workspaceId: string; scopes: KeyScopes } {
  const entries = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value.filter((v) => typeof v === 'string') : [];
  const workspaces = new Set<string>();
  const toolSets = new Set<string>();
  const services = new Set<string>();
  let write = false;
  for (const entry of entries as string[]) {
    const [kind, ...rest] = entry.split(':');
    const name = rest.join(':');
    if (kind === 'write' && rest.length === 0) write = true;
    else if (kind === 'workspace' && name) workspaces.add(name);
    else if (kind === 'tool_set' && name) toolSets.add(name);
    else if (kind === 'service' && name) services.add(name);
  }
  if (workspaces.size !== 1) throw new JwtRefusal('the claim must name exactly one workspace');
  if (toolSets.size > 1) throw new JwtRefusal('the claim names more than one tool set');
  const toolSet = [...toolSets][0] ?? null;
  const allServices = services.has('*') || (toolSet !== null && services.size === 0);
  return {
    workspaceId: [...workspaces][0] as string,
    scopes: { admin: false, operator: false, toolSet, services: allServices ? '*' : [...services], readOnly: !write },
  };
}
