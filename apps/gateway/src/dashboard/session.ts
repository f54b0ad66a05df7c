import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A signed-in operator: which admin key signed in (its id, never the key), and the session's CSRF token. */
export interface DashboardSession {
  keyId: string;
  workspaceId: string;
  csrf: string;
  createdAt: number;
  lastSeenAt: number;
  /** Shown once on the next page, then dropped (a new key's secret, a confirmation). */
  flash?: { kind: 'ok' | 'error' | 'secret'; message: string; secret?: string };
}

export interface SessionOptions {
  /** Ends a session not used for this long (default 30 minutes). */
  idleMs: number;
  /** Ends a session this long after sign-in, used or not (default 12 hours). */
  absoluteMs: number;
  /** Most sessions kept at once; the oldest goes first (default 10,000). */
  max: number;
}

export const DEFAULT_SESSION_OPTIONS: SessionOptions = { idleMs: 30 * 60_000, absoluteMs: 12 * 60 * 60_000, max: 10_000 };

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

/**
 * Dashboard sessions, in this process' memory. The cookie carries a random 256-bit id; only its SHA-256 is kept, so a
 * memory dump does not yield a usable cookie. Sessions end on sign-out, after `idleMs` without a request, `absoluteMs`
 * after sign-in, and when the process restarts (the operator signs in again). Behind a load balancer, the dashboard
 * needs sticky sessions (docs/dashboard.md); the API itself has no such need.
 */
export class SessionStore {
  private readonly sessions = new Map<string, DashboardSession>();

  constructor(
    private readonly options: SessionOptions = DEFAULT_SESSION_OPTIONS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a session; returns the cookie value (the only copy of the id) and the session. */
  create(keyId: string, workspaceId: string): { id: string; session: DashboardSession } {
    this.sweep();
    while (this.sessions.size >= this.options.max) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    const id = randomBytes(32).toString('base64url');
    const at = this.now();
    const session: DashboardSession = { keyId, workspaceId, csrf: randomBytes(32).toString('base64url'), createdAt: at, lastSeenAt: at };
    this.sessions.set(hashId(id), session);
    return { id, session };
  }

  /** The live session of a cookie value (its idle clock restarts), or undefined. */
  get(id: string | undefined): DashboardSession | undefined {
    if (!id || id.length > 100) return undefined;
    const hash = hashId(id);
    const session = this.sessions.get(hash);
    if (!session) return undefined;
    const at = this.now();
    if (at - session.lastSeenAt > this.options.idleMs || at - session.createdAt > this.options.absoluteMs) {
      this.sessions.delete(hash);
      return undefined;
    }
    session.lastSeenAt = at;
    return session;
  }

  destroy(id: string | undefined): void {
    if (id) this.sessions.delete(hashId(id));
  }

  /** Ends every session of a key (it was revoked, or is no longer an admin key). */
  destroyKey(keyId: string): void {
    for (const [hash, session] of this.sessions) if (session.keyId === keyId) this.sessions.delete(hash);
  }

  get size(): number {
    return this.sessions.size;
  }

  private sweep(): void {
    const at = this.now();
    for (const [hash, session] of this.sessions) {
      if (at - session.lastSeenAt > this.options.idleMs || at - session.createdAt > this.options.absoluteMs) this.sessions.delete(hash);
    }
  }
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function csrfMatches(session: DashboardSession, submitted: unknown): boolean {
  if (typeof submitted !== 'string' || submitted.length === 0) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Sign-in attempts per client address in a sliding window (default 10 a minute). `attempt` answers how many seconds
 * to wait when the address is over its limit, else 0 (and counts the attempt).
 */
export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  attempt(address: string): number {
    const at = this.now();
    if (this.attempts.size > 10_000) this.prune(at);
    const recent = (this.attempts.get(address) ?? []).filter((t) => at - t < this.windowMs);
    if (recent.length >= this.limit) {
      this.attempts.set(address, recent);
      return Math.max(1, Math.ceil(((recent[0] ?? at) + this.windowMs - at) / 1000));
    }
    recent.push(at);
    this.attempts.set(address, recent);
    return 0;
  }

  private prune(at: number): void {
    for (const [address, times] of this.attempts) if (times.every((t) => at - t >= this.windowMs)) this.attempts.delete(address);
  }
}
