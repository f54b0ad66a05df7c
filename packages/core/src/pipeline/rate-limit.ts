import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';

/**
 * Per-key rate limits: a token bucket per API key, checked by the invoke pipeline on every call of an operation
 * (REST and MCP alike), before anything else is done for the call.
 *
 * - One process (the embedded SQLite store): the buckets are in memory ({@link LocalBuckets}).
 * - Several processes on one database (a store with `leaseTokens`, i.e. PostgreSQL): every key has one shared bucket
 *   in the database, and each process leases tokens from it in chunks ({@link LeasedBuckets}) with one atomic
 *   statement, then spends them locally. A database round trip happens once per chunk of calls, never per call.
 */

export interface RateLimitOptions {
  /** Calls a minute an API key may make: the bucket's refill rate. 0 turns the limit off. */
  perMinute: number;
  /** Calls a key may make at once after being idle: the bucket's size (at least 1). */
  burst: number;
}

/** What a shared bucket handed out: whole tokens granted, and the (fractional) tokens left in it after the grant. */
export interface TokenLease {
  granted: number;
  left: number;
}

/**
 * Takes up to `want` whole tokens from the shared bucket `bucket` (created full when missing) after refilling it at
 * `perMs` tokens a millisecond up to `burst`, atomically, on a clock every process shares.
 */
export type LeaseTokens = (bucket: string, want: number, burst: number, perMs: number) => Promise<TokenLease>;

/** Token buckets by key: `take` answers 0 when the call may go ahead, else how long (ms) until it could. */
export interface TokenBuckets {
  /** Takes one token of the key's bucket. A number when it can answer at once (the usual case), else a promise. */
  take(keyId: string): number | Promise<number>;
}

/** What the invoke pipeline asks before every call of an operation. */
export class RateLimiter {
  constructor(
    readonly options: RateLimitOptions,
    private readonly buckets: TokenBuckets,
  ) {}

  /**
   * Undefined when the call may go ahead at once (no promise is made: the common case costs a map look-up and some
   * arithmetic); else a promise that resolves when it may, or rejects with 429 `rate_limited`.
   */
  admit(keyId: string): Promise<void> | undefined {
    const wait = this.buckets.take(keyId);
    if (wait === 0) return undefined;
    if (typeof wait === 'number') return Promise.reject(rateLimited(this.options, wait));
    return wait.then((ms) => {
      if (ms > 0) throw rateLimited(this.options, ms);
    });
  }
}

/** Tokens an instance leases at a time: a tenth of the burst, at least 1. */
export function leaseChunk(burst: number): number {
  return Math.max(1, Math.ceil(burst / 10));
}

/** Keys tracked before idle (full) buckets are dropped: a full bucket is the same as no bucket. */
const SWEEP_ABOVE = 10_000;

/** The limiter for these options, or undefined when the limit is off (then the pipeline does no work at all). */
export function createRateLimiter(
  options: RateLimitOptions | undefined,
  shared: { leaseTokens?: LeaseTokens; logger: Logger; now?: () => number },
): RateLimiter | undefined {
  if (!options || options.perMinute <= 0) return undefined;
  if (!Number.isFinite(options.perMinute) || !Number.isInteger(options.burst) || options.burst < 1) {
    throw new Error('Rate limit: perMinute must be a positive number and burst a whole number of at least 1');
  }
  const now = shared.now ?? (() => performance.now());
  const buckets = shared.leaseTokens ? new LeasedBuckets(options, shared.leaseTokens, shared.logger, now) : new LocalBuckets(options, now);
  return new RateLimiter(options, buckets);
}

/** The refusal: 429 `rate_limited`, `Retry-After` in whole seconds (at least 1), and the wait said in the message. */
export function rateLimited(options: RateLimitOptions, waitMs: number): GatewayError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new GatewayError(
    'rate_limited',
    `Rate limit of this API key exceeded (${options.perMinute} calls a minute, bursts of ${options.burst}); retry after ${seconds} s`,
    { retryAfter: seconds },
  );
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Refills `bucket` up to `now` and takes one token: 0, or the ms until a token is there. */
function takeOne(bucket: Bucket, now: number, burst: number, perMs: number): number {
  if (now > bucket.at) {
    bucket.tokens = Math.min(burst, bucket.tokens + (now - bucket.at) * perMs);
    bucket.at = now;
  }
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    return 0;
  }
  return (1 - bucket.tokens) / perMs;
}

/** In-memory token buckets, one per key: for a single process. */
export class LocalBuckets implements TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;
  private readonly burst: number;

  constructor(
    options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    this.perMs = options.perMinute / 60_000;
    this.burst = options.burst;
  }

  take(keyId: string): number {
    const now = this.now();
    let bucket = this.buckets.get(keyId);
    if (!bucket) {
      if (this.buckets.size >= SWEEP_ABOVE) this.sweep(now);
      bucket = { tokens: this.burst, at: now };
      this.buckets.set(keyId, bucket);
    }
    return takeOne(bucket, now, this.burst, this.perMs);
  }

  /** Drops the buckets that have refilled completely (they hold nothing a new bucket would not). */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.at) * this.perMs >= this.burst) this.buckets.delete(key);
    }
  }
}

interface Lease {
  /** Tokens leased from the shared bucket and not spent yet. */
  tokens: number;
  /** The shared bucket has less than a chunk until then (local clock): refuse without asking the database. */
  emptyUntil: number;
  /** Calls waiting for a lease. */
  waiting: number;
  /** The lease in flight, if any: one at a time per key and process. */
  pending: Promise<void> | undefined;
  /** The database could not be asked: serve from a local bucket until then, and ask again after. */
  failingUntil: number;
  /** That local bucket, kept (and refilling) across failures, so that a flapping database gives no extra bursts. */
  fallback: Bucket | undefined;
}

/** How long the local fallback serves after a failed lease before the database is asked again. */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** Rounds a call waits for leases before it is refused (each round asks for every call then waiting). */
const LEASE_ROUNDS = 3;

/**
 * Token buckets shared by every process through the database: each process leases tokens in chunks (a tenth of the
 * burst) and spends them locally. It starts the next lease in the background when it spends its last token, so a
 * call rarely waits for one. When the shared bucket runs dry the process refuses calls of that key on its own until
 * the bucket holds a chunk again (computed from what the lease returned), so a client hammering a throttled key does
 * not make the database work either. Should a lease fail (the database is down), the process limits that key on its
 * own with a local bucket for a second, then asks again.
 *
 * Accuracy: tokens are taken from the shared bucket before they are spent, so over any period the calls admitted
 * by N processes are at most burst + rate × period + N × chunk (the tokens each process may hold from before). A call
 * can be refused while up to N × chunk tokens sit unspent on the other processes; they are spent by their next calls.
 */
export class LeasedBuckets implements TokenBuckets {
  private readonly leases = new Map<string, Lease>();
  private readonly perMs: number;
  private readonly burst: number;
  private readonly chunk: number;
  private lastWarning = Number.NEGATIVE_INFINITY;

  constructor(
    options: RateLimitOptions,
    private readonly leaseTokens: LeaseTokens,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {
    this.perMs = options.perMinute / 60_000;
    this.burst = options.burst;
    this.chunk = leaseChunk(options.burst);
  }

  take(keyId: string): number | Promise<number> {
    let lease = this.leases.get(keyId);
    if (!lease) {
      if (this.leases.size >= SWEEP_ABOVE) this.sweep();
      lease = { tokens: 0, emptyUntil: 0, waiting: 0, pending: undefined, failingUntil: 0, fallback: undefined };
      this.leases.set(keyId, lease);
    }
    if (lease.tokens >= 1) {
      lease.tokens -= 1;
      // the last token spent: fetch the next chunk now, so the next call finds it here
      if (lease.tokens < 1 && !lease.pending && this.now() >= lease.emptyUntil) void this.lease(keyId, lease);
      return 0;
    }
    return this.waitForLease(keyId, lease);
  }

  private async waitForLease(keyId: string, lease: Lease): Promise<number> {
    for (let round = 0; ; round++) {
      if (lease.tokens >= 1) {
        lease.tokens -= 1;
        return 0;
      }
      const now = this.now();
      if (now < lease.failingUntil) {
        lease.fallback ??= { tokens: this.burst, at: now };
        return takeOne(lease.fallback, now, this.burst, this.perMs);
      }
      if (now < lease.emptyUntil) return lease.emptyUntil - now;
      if (round === LEASE_ROUNDS) return this.chunk / this.perMs;
      lease.waiting += 1;
      try {
        await (lease.pending ?? this.lease(keyId, lease));
      } finally {
        lease.waiting -= 1;
      }
    }
  }

  /** Leases a chunk, plus one token for each call waiting; never rejects. */
  private lease(keyId: string, lease: Lease): Promise<void> {
    const want = Math.min(this.burst, this.chunk + lease.waiting);
    const pending = this.leaseTokens(`key:${keyId}`, want, this.burst, this.perMs).then(
      ({ granted, left }) => {
        lease.tokens += granted;
        lease.failingUntil = 0;
        // Less than a token left: refuse locally until a chunk has refilled, then ask again.
        lease.emptyUntil = left < 1 ? this.now() + (this.chunk - left) / this.perMs : 0;
      },
      (error: unknown) => {
        lease.failingUntil = this.now() + RETRY_AFTER_FAILURE_MS;
        if (this.now() - this.lastWarning >= 60_000) {
          this.lastWarning = this.now();
          this.logger.warn({ err: error }, 'could not lease rate-limit tokens from the database: limiting each key in this process alone');
        }
      },
    );
    lease.pending = pending.finally(() => {
      lease.pending = undefined;
    });
    return lease.pending;
  }

  /** Drops the keys that hold nothing and wait for nothing. */
  private sweep(): void {
    const now = this.now();
    for (const [key, lease] of this.leases) {
      if (lease.tokens < 1 && !lease.pending && lease.waiting === 0 && now >= lease.emptyUntil && now >= lease.failingUntil) {
        this.leases.delete(key);
      }
    }
  }
}
