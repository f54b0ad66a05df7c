import type { JsonWebKey } from 'node:crypto';
import type { Logger } from '../logger.js';

/** Fetches a JSON document (through the egress policy, with a timeout and a size cap): external-issuer.ts gives it. */
export type JsonGetter = (url: string) => Promise<unknown>;

export interface JwksOptions {
  /** The identity provider's issuer: its discovery document names the JWKS when `jwksUri` is not given. */
  issuer: string;
  jwksUri?: string | undefined;
  /** How long fetched keys are used before they are fetched again, ms. */
  cacheMs: number;
  /** Fewest ms between two fetches, however many tokens name an unknown `kid` (a flood must not become one upstream). */
  refetchFloorMs: number;
}

/**
 * The identity provider's signing keys (its JWKS), cached. A token that names a `kid` the cache does not hold makes
 * the keys be fetched again (the provider rotated them), but never more often than the floor; a failed fetch keeps the
 * keys known so far. The JWKS address is the configured one, else the `jwks_uri` of the issuer's OpenID Connect
 * discovery document (`<issuer>/.well-known/openid-configuration`).
 */
export class Jwks {
  private keys: JsonWebKey[] = [];
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private attemptedAt = Number.NEGATIVE_INFINITY;
  private inflight: Promise<void> | undefined;
  private uri: string | undefined;

  constructor(
    private readonly options: JwksOptions,
    private readonly get: JsonGetter,
    private readonly logger: Logger,
  ) {
    this.uri = options.jwksUri;
  }

  /** The keys a token's `kid` may name (every key when it names none), fetched when unknown or stale. */
  async candidates(kid: string | undefined, now = Date.now()): Promise<JsonWebKey[]> {
    const stale = now - this.fetchedAt >= this.options.cacheMs;
    if (stale || (kid !== undefined && !this.matching(kid).length)) {
      if (now - this.attemptedAt >= this.options.refetchFloorMs) await this.refresh(now);
    }
    return kid === undefined ? this.keys : this.matching(kid);
  }

  private matching(kid: string): JsonWebKey[] {
    return this.keys.filter((key) => key.kid === kid);
  }

  private refresh(now: number): Promise<void> {
    this.inflight ??= this.fetchKeys(now).finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetchKeys(now: number): Promise<void> {
    this.attemptedAt = now;
    try {
      this.uri ??= await this.discover();
      const document = (await this.get(this.uri)) as { keys?: unknown } | undefined;
      if (!document || !Array.isArray(document.keys)) throw new Error('the JWKS has no keys array');
      this.keys = document.keys.filter((key): key is JsonWebKey => !!key && typeof key === 'object' && !Array.isArray(key));
      this.fetchedAt = now;
    } catch (error) {
      this.logger.warn({ err: error, issuer: this.options.issuer }, 'could not fetch the identity provider’s keys (JWKS)');
    }
  }

  private async discover(): Promise<string> {
    const url = `${this.options.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const document = (await this.get(url)) as { jwks_uri?: unknown; issuer?: unknown } | undefined;
    if (typeof document?.jwks_uri !== 'string') throw new Error('the discovery document names no jwks_uri');
    if (document.issuer !== this.options.issuer) throw new Error('the discovery document names another issuer');
    return document.jwks_uri;
  }
}
