/** Lifetimes and limits of the built-in authorization server; every field has a default (`AUTHORIZATION_DEFAULTS`). */
export interface AuthorizationOptions {
  /** How long an access token lives (default one hour). */
  accessTokenTtlMs?: number;
  /** How long a refresh token lives unused (default 30 days); each use rotates it. */
  refreshTokenTtlMs?: number;
  /** How long an authorization code may wait for its exchange (default 60 s). */
  codeTtlMs?: number;
  /** How long a registration nobody consented to is kept (default one day). */
  unusedClientTtlMs?: number;
  /** Dynamic registrations per caller (address) per minute (default 10). */
  registrationsPerMinute?: number;
}

export const AUTHORIZATION_DEFAULTS: Required<AuthorizationOptions> = {
  accessTokenTtlMs: 60 * 60_000,
  refreshTokenTtlMs: 30 * 24 * 60 * 60_000,
  codeTtlMs: 60_000,
  unusedClientTtlMs: 24 * 60 * 60_000,
  registrationsPerMinute: 10,
};
