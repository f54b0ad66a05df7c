/**
 * What one attempt of a counted key was given: `wait` 0 and a `ticket` (the attempt is counted; the ticket takes it
 * back), or `wait` > 0, the whole seconds until the oldest counted attempt leaves the window (nothing was counted).
 */
export type AttemptTicket = { wait: 0; ticket: number } | { wait: number; ticket?: undefined };

/**
 * Attempts per key in a sliding window, for the limits that guard against abuse per client address: failed dashboard
 * sign-ins, dynamic client registrations. A single process keeps them in its memory ({@link MemoryAttemptWindows});
 * the workers of `serve --workers N` ask their primary, so that a limit holds for the instance, not per worker.
 */
export interface AttemptWindows {
  /** Counts an attempt of `key` unless `limit` of them are already in the last `windowMs`. */
  take(key: string, limit: number, windowMs: number): Promise<AttemptTicket>;
  /** Takes back an attempt counted by `take` (a sign-in that succeeded costs nothing). */
  giveBack(key: string, ticket: number): void;
}

/** Past this many keys, those with no attempt left in their window are dropped; past {@link MAX_KEYS}, the oldest. */
const PRUNE_AT = 10_000;
const MAX_KEYS = 100_000;

/**
 * The windows in one process' memory: per key, the times of its counted attempts (at most `limit` of them, since a
 * refused attempt is not counted). An attempt's ticket is its time: giving it back removes one attempt of that time.
 * The primary of `serve --workers N` holds one for all its workers.
 */
export class MemoryAttemptWindows implements AttemptWindows {
  private readonly attempts = new Map<string, { times: number[]; windowMs: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, limit: number, windowMs: number): Promise<AttemptTicket> {
    return Promise.resolve(this.takeNow(key, limit, windowMs));
  }

  /** `take`, answered at once (the primary answers its workers with it). */
  takeNow(key: string, limit: number, windowMs: number): AttemptTicket {
    const at = this.now();
    const times = (this.attempts.get(key)?.times ?? []).filter((t) => at - t < windowMs);
    if (times.length >= limit) {
      this.keep(key, times, windowMs);
      return { wait: Math.max(1, Math.ceil(((times[0] ?? at) + windowMs - at) / 1000)) };
    }
    if (!this.attempts.has(key) && this.attempts.size >= PRUNE_AT) this.prune(at);
    times.push(at);
    this.keep(key, times, windowMs);
    return { wait: 0, ticket: at };
  }

  giveBack(key: string, ticket: number): void {
    const entry = this.attempts.get(key);
    if (!entry) return;
    const index = entry.times.lastIndexOf(ticket);
    if (index >= 0) entry.times.splice(index, 1);
    this.keep(key, entry.times, entry.windowMs);
  }

  /** Keys with attempts held now (for tests and diagnostics). */
  get size(): number {
    return this.attempts.size;
  }

  private keep(key: string, times: number[], windowMs: number): void {
    if (times.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, { times, windowMs });
  }

  /** Drops the keys whose newest attempt is out of its window; if too many remain, the longest-held ones. */
  private prune(at: number): void {
    for (const [key, { times, windowMs }] of this.attempts) if (at - (times[times.length - 1] ?? 0) >= windowMs) this.attempts.delete(key);
    for (const key of this.attempts.keys()) {
      if (this.attempts.size < MAX_KEYS) break;
      this.attempts.delete(key);
    }
  }
}
