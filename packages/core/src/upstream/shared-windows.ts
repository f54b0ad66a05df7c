import type { Logger } from '../logger.js';

/**
 * What a store shared by several processes offers (PostgreSQL: store/postgres-quota.ts, migration 11; the store's
 * side of this contract is store/quota-types.ts, whose comments say what each field means): a window of one
 * connection grants up to `want` tokens, never more than `limit` within any `horizonMs`.
 */
export interface QuotaLeases {
  leaseQuota(request: QuotaLeaseRequest): Promise<QuotaLease>;
  returnQuota(service: string, workspaceId: string, windowMs: number, grantMs: number, tokens: number): Promise<void>;
}

export interface QuotaLeaseRequest {
  service: string;
  workspaceId: string;
  windowMs: number;
  limit: number;
  want: number;
  horizonMs: number;
  atMs?: number;
}

export interface QuotaLease {
  granted: number;
  grantMs: number;
  nextInMs: number;
}

/**
 * A rate window's tokens from a budget shared with other instances (the per-minute and per-hour windows on
 * PostgreSQL), consulted by the in-memory window of limits.ts besides its own count of this process' requests.
 */
export interface WindowTokens {
  /** Tokens held here, spendable now without asking anyone (Infinity while the shared budget cannot be asked). */
  held(now: number): number;
  /** ms until the shared budget is expected to grant again, as last learned (0: it may now, or nobody knows yet). */
  blockedFor(now: number): number;
  /** Spends one held token; `idle`: no call waits behind this one, so the next may be leased ahead for calls to come. */
  take(now: number, idle: boolean): void;
  /** Asks for tokens for `want` calls unless a lease is in flight; resolves once it has answered (never rejects). */
  request(want: number): Promise<void>;
}

/** One connection's window, as the limiter of that connection describes it. */
export interface SharedWindow {
  service: string;
  workspaceId: string;
  limit: number;
  ms: number;
}

/**
 * The shared tokens of a connection's window, or undefined when that window stays per process. `landed` is called
 * whenever a lease has answered (or given up), so that calls waiting for it are admitted.
 */
export type SharedWindows = (window: SharedWindow, landed: () => void) => WindowTokens | undefined;

/** Windows shorter than this stay per process: a lease's lifetime would be a large share of them (docs/security.md). */
const SHARED_FROM_MS = 60_000;
/** A lease that has not answered by then is given up: the window is limited by this process alone for a while. */
const LEASE_TIMEOUT_MS = 1_000;
/** How long a window is limited by this process alone after a failed lease, before the database is asked again. */
const ALONE_AFTER_FAILURE_MS = 1_000;
/** Shortest pause before asking again after a lease granted nothing (guards against a busy loop on a clock skew). */
const MIN_BLOCKED_MS = 20;

/**
 * How long leased tokens may be spent: 1 s for a minute window, 5 s for an hour. A grant counts against the shared
 * window for the window plus this (its horizon), so that every request sent within any window comes from grants made
 * within one horizon: the upstream never sees more than the limit. The cost is that share of the window.
 */
export function leaseLifetime(windowMs: number): number {
  return Math.min(5_000, Math.max(1_000, windowMs / 60));
}

/** The most tokens leased ahead of demand: a twentieth of the limit (Clio's 50 a minute: 2), at least 1. */
export function maxBatch(limit: number): number {
  return Math.max(1, Math.floor(limit / 20));
}

/** Whether a store offers shared quota windows (PostgreSQL does; SQLite, which serves one process, does not). */
export function hasQuotaLeases(store: object): store is QuotaLeases {
  const candidate = store as Partial<QuotaLeases>;
  return typeof candidate.leaseQuota === 'function' && typeof candidate.returnQuota === 'function';
}

/** Shared per-minute and per-hour windows leased from `store`; shorter windows stay per process. */
export function sharedWindows(store: QuotaLeases, logger: Logger, now: () => number = () => performance.now()): SharedWindows {
  let lastWarning = Number.NEGATIVE_INFINITY;
  const warn = (error: unknown, what: string) => {
    if (now() - lastWarning < 60_000) return;
    lastWarning = now();
    logger.warn({ err: error }, `could not ${what} upstream quota tokens: limiting each connection in this process alone for now`);
  };
  return (window, landed) => (window.ms >= SHARED_FROM_MS ? new LeasedWindow(window, store, landed, warn, now) : undefined);
}

interface Grant {
  /** The grant's time on the database's clock (names it when unspent tokens are given back). */
  at: number;
  left: number;
  /** Local clock: spent by then, or given back. */
  expires: number;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The tokens one instance holds of one shared window. It leases for the calls waiting (at least its batch), spends
 * them locally, and gives back what its lifetime left unspent. The batch adapts: it doubles (up to
 * {@link maxBatch}) each time a grant is spent completely and halves each time tokens are given back, so a quiet
 * connection leases one at a time and a busy one a round trip per batch. When the budget is spent the lease says
 * when it frees again, and calls are refused or wait without asking the database until then.
 */
class LeasedWindow implements WindowTokens {
  private grants: Grant[] = [];
  private inFlight: Promise<void> | undefined;
  private blockedUntil = 0;
  private aloneUntil = Number.NEGATIVE_INFINITY;
  private batch = 1;
  private readonly lifetime: number;

  constructor(
    private readonly window: SharedWindow,
    private readonly store: QuotaLeases,
    private readonly landed: () => void,
    private readonly warn: (error: unknown, what: string) => void,
    private readonly now: () => number,
  ) {
    this.lifetime = leaseLifetime(window.ms);
  }

  held(now: number): number {
    if (now < this.aloneUntil) return Number.POSITIVE_INFINITY;
    let held = 0;
    for (const grant of this.grants) if (grant.expires > now) held += grant.left;
    return held;
  }

  blockedFor(now: number): number {
    return now < this.aloneUntil ? 0 : Math.max(0, this.blockedUntil - now);
  }

  take(now: number, idle: boolean): void {
    if (now < this.aloneUntil) return;
    const grant = this.grants.find((g) => g.expires > now && g.left > 0);
    if (!grant) return;
    grant.left -= 1;
    if (grant.left > 0) return;
    // spent before its lifetime ended: demand is there, lease more at a time
    this.batch = Math.min(maxBatch(this.window.limit), this.batch * 2);
    this.drop(grant);
    if (idle && this.batch > 1 && this.held(now) === 0 && !this.inFlight && now >= this.blockedUntil) void this.request(this.batch);
  }

  request(want: number): Promise<void> {
    if (this.inFlight) return this.inFlight;
    const { service, workspaceId, limit, ms } = this.window;
    const asked = this.now();
    const count = Math.min(limit, Math.max(1, want, this.batch));
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answered = this.store.leaseQuota({ service, workspaceId, windowMs: ms, limit, want: count, horizonMs: ms + this.lifetime }).then(
      (lease) => {
        this.keep(lease, asked, count);
        if (settled) this.landed(); // answered after it was given up: the calls still waiting may go now
      },
      (error: unknown) => {
        if (!settled) this.failed(error, 'lease');
      },
    );
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.failed(new Error(`no answer within ${LEASE_TIMEOUT_MS} ms`), 'lease');
        resolve();
      }, LEASE_TIMEOUT_MS);
    });
    const pending = Promise.race([answered, gaveUp]).finally(() => {
      settled = true;
      clearTimeout(timer);
      if (this.inFlight === pending) this.inFlight = undefined;
      this.landed();
    });
    this.inFlight = pending;
    return pending;
  }

  private keep(lease: QuotaLease, asked: number, wanted: number): void {
    const now = this.now();
    this.blockedUntil = lease.granted < wanted || lease.nextInMs > 0 ? now + Math.max(lease.nextInMs, MIN_BLOCKED_MS) : 0;
    if (lease.granted === 0) return;
    const expires = asked + this.lifetime;
    if (expires <= now) {
      this.giveBack(lease.grantMs, lease.granted);
      return;
    }
    const grant: Grant = { at: lease.grantMs, left: lease.granted, expires, timer: setTimeout(() => this.expire(grant), expires - now) };
    grant.timer.unref?.();
    this.grants.push(grant);
  }

  /** A grant's lifetime is over: what is left of it goes back to the shared window, and the batch halves. */
  private expire(grant: Grant): void {
    this.drop(grant);
    if (grant.left > 0) {
      this.batch = Math.max(1, Math.floor(this.batch / 2));
      this.giveBack(grant.at, grant.left);
    }
  }

  private drop(grant: Grant): void {
    clearTimeout(grant.timer);
    this.grants = this.grants.filter((g) => g !== grant);
  }

  private giveBack(at: number, tokens: number): void {
    const { service, workspaceId, ms } = this.window;
    // Best effort: tokens not given back leave the window with their grant's horizon.
    this.store.returnQuota(service, workspaceId, ms, at, tokens).catch((error: unknown) => this.warn(error, 'give back'));
  }

  private failed(error: unknown, what: string): void {
    this.aloneUntil = this.now() + ALONE_AFTER_FAILURE_MS;
    this.warn(error, what);
  }
}
