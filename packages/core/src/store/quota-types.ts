/**
 * Upstream quotas shared by the instances on one database (migration 11, postgres-quota.ts): the per-minute and
 * per-hour windows of a connection's upstream limits, whose tokens each instance leases in batches
 * (upstream/shared-windows.ts). A store that serves one process (SQLite) has none of this.
 */

/** One lease of a shared window: up to `want` tokens, never more than `limit` granted within any `horizonMs`. */
export interface QuotaLeaseRequest {
  service: string;
  workspaceId: string;
  /** The window's length (60,000 or 3,600,000): with service and workspace, names the shared window. */
  windowMs: number;
  limit: number;
  want: number;
  /**
   * How long a grant counts against the window: the window plus the grant's lifetime (tokens unspent by then are no
   * longer spent), so that requests sent in any window come from grants inside one horizon.
   */
  horizonMs: number;
  /** The shared clock's time (ms since the epoch) to lease at: the database's own clock when omitted (tests pass theirs). */
  atMs?: number;
}

export interface QuotaLease {
  /** Whole tokens granted, 0 to `want`. */
  granted: number;
  /** The grant's time on the shared clock: names it when unspent tokens are given back. */
  grantMs: number;
  /** ms until the window can grant one more token, after this grant (0: it can now). */
  nextInMs: number;
}

/** What a store shared by several processes (PostgreSQL) offers the upstream limiter. */
export interface QuotaLeases {
  leaseQuota(request: QuotaLeaseRequest): Promise<QuotaLease>;
  /** Gives back `tokens` unspent tokens of the grant made at `grantMs` (nothing when it has left the horizon). */
  returnQuota(service: string, workspaceId: string, windowMs: number, grantMs: number, tokens: number): Promise<void>;
}
