import type { UpstreamResponse } from '../contract/operation.js';
import type { RegisteredIntegration } from '../contract/registry.js';
import { type UpstreamLimits, upstreamLimitsProblem, WINDOWS } from '../contract/upstream-limits.js';
import { GatewayError } from '../errors.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import { Window } from './rate-window.js';
import type { SharedWindow, SharedWindows, WindowTokens } from './shared-windows.js';
import type { TraceContext } from './trace-context.js';

export interface UpstreamLimitOptions {
  /** Requests in flight per connection for integrations that declare no `concurrency`; 0: no cap. */
  maxConcurrency: number;
  /** Calls that may wait for a slot, per connection; one more is refused at once (429). 0: none wait. */
  queueLength: number;
  /**
   * Longest wait for a slot, ms. The wait counts in the upstream call's time budget and never takes more than three
   * quarters of it; a call that would wait longer is refused (429 with `Retry-After`).
   */
  queueWaitMs: number;
  /** Limits that replace a plugin's declaration, per service (the operator's override; a sandbox's own limits). */
  services: Readonly<Record<string, UpstreamLimits>>;
}

export const DEFAULT_UPSTREAM_LIMIT_OPTIONS: UpstreamLimitOptions = {
  maxConcurrency: 32,
  queueLength: 200,
  queueWaitMs: 10_000,
  services: {},
};

/** Share of the time budget a wait for a slot may take: a quarter is always left for the request itself. */
export const MAX_WAIT_SHARE = 0.75;

type Release = () => void;

/** The connection an upstream request belongs to (workspace + service), and whether its caller went away. */
export interface ConnectionCall {
  workspaceId: string;
  /** The member whose own account the call uses (a personal connection has its own limits); absent: the shared one. */
  memberId?: string | null | undefined;
  /** True once the caller is gone (its client closed the connection): a waiting call is then dropped, never sent. */
  callerGone?: (() => boolean) | undefined;
  /** The trace of the request the call answers: its upstream requests carry it, its log lines name it. */
  trace?: TraceContext | undefined;
}

/**
 * Whose limits a call counts against: the workspace's shared connection, or one person's own (the application counts
 * each token apart). The key of a personal connection is never a workspace id (it holds a NUL).
 */
export function limitKey(connection: ConnectionCall): string {
  return connection.memberId ? `${connection.workspaceId}\u0000${connection.memberId}` : connection.workspaceId;
}

interface Waiter {
  resolve(release: Release): void;
  reject(error: GatewayError): void;
  gone: (() => boolean) | undefined;
  timer: ReturnType<typeof setTimeout>;
  /** This limiter's clock: refused if it cannot start by then. */
  until: number;
  done: boolean;
}

/**
 * The slots of one connection: at most `concurrency` requests in flight, at most `limit` started in each window, and a
 * FIFO queue of bounded length whose calls wait a bounded time. In memory, per process; with `shared`, the windows it
 * answers for also need tokens of a budget shared by every instance.
 */
export class ConnectionLimiter {
  private active = 0;
  /** Calls retrying inside their slot that wait for a window: they go before the queue. */
  private pacing = 0;
  private readonly queue: Waiter[] = [];
  private head = 0;
  private waiting = 0;
  private wake: ReturnType<typeof setTimeout> | undefined;
  private readonly windows: Window[];
  /** The fewest requests any window lets start: no lease asks for more tokens than that at once. */
  private readonly smallestLimit: number;
  /** Whether any window is shared (else no call ever waits for a lease). */
  private readonly leased: boolean;

  constructor(
    readonly name: string,
    readonly concurrency: number,
    limits: UpstreamLimits,
    private readonly queueLength: number,
    private readonly now: () => number = performance.now.bind(performance),
    shared?: (window: Pick<SharedWindow, 'limit' | 'ms'>, landed: () => void) => WindowTokens | undefined,
  ) {
    this.windows = WINDOWS.filter(([key]) => (limits[key] ?? 0) > 0).map(([key, ms, unit]) => {
      const limit = limits[key] as number;
      return new Window(
        limit,
        ms,
        unit,
        shared?.({ limit, ms }, () => this.drain()),
      );
    });
    this.smallestLimit = Math.min(...this.windows.map((window) => window.limit));
    this.leased = this.windows.some((window) => window.tokens);
  }

  /** Requests in flight and calls waiting (for tests and diagnostics). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting };
  }

  /**
   * Takes a slot: at once when one is free and nobody waits, else in FIFO order within `maxWaitMs`. Refused with 429
   * `rate_limited` and a `Retry-After` when the queue is full or the wait would be longer. `gone` tells whether the
   * caller went away: a waiting call whose caller has gone is dropped when its turn comes, without taking a slot.
   * The returned function releases the slot (once, whatever happens to the request).
   */
  acquire(maxWaitMs: number, gone?: () => boolean): Release | Promise<Release> {
    const now = this.now();
    if (this.waiting === 0 && this.pacing === 0 && this.admissible(now) === 0) return this.start(now);
    if (this.waiting >= this.queueLength) {
      const blocked = this.concurrency > 0 && this.active >= this.concurrency ? `${this.inFlight()} and ` : '';
      const reason = `${blocked}${this.waiting} ${this.waiting === 1 ? 'call is' : 'calls are'} waiting, the most that may wait`;
      throw this.refusal(reason, this.windowWait(this.waiting, now));
    }
    const windowWait = this.windowWait(this.waiting, now);
    if (windowWait > maxWaitMs) throw this.refusal(this.rateText(), windowWait);
    return new Promise<Release>((resolve, reject) => {
      const timer = setTimeout(() => this.expire(waiter, maxWaitMs), maxWaitMs);
      const waiter: Waiter = { resolve, reject, gone, done: false, timer, until: now + maxWaitMs };
      this.queue.push(waiter);
      this.waiting++;
      this.drain();
    });
  }

  /**
   * Takes a window slot for a retry of a request that holds its concurrency slot, waiting until `until` (this
   * limiter's clock) at the longest; refused with 429 past it. Bounded: each turn waits until a window frees.
   */
  async pace(until: number): Promise<void> {
    if (this.windows.length === 0) return;
    this.pacing++;
    try {
      for (;;) {
        const now = this.now();
        const wait = this.windowWait(0, now);
        if (wait === 0) {
          const lease = this.lease(now);
          if (lease) {
            if (now >= until) throw this.refusal(this.rateText(), 0);
            await lease;
            continue;
          }
          for (const window of this.windows) window.take(now, this.waiting === 0);
          return;
        }
        if (now + wait > until) throw this.refusal(this.rateText(), wait);
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
      }
    } finally {
      this.pacing--;
      this.drain();
    }
  }

  /** Sends through `client` inside a slot, the wait counted in the call's time budget. */
  async send(client: UpstreamClient, request: PreparedRequest, queueWaitMs: number, gone?: () => boolean): Promise<UpstreamResponse> {
    const budget = client.options.timeoutMs;
    const deadline = performance.now() + budget;
    const maxWait = Math.min(queueWaitMs, budget * MAX_WAIT_SHARE);
    // A free slot is taken at once, without a turn of the event loop (the common case).
    const acquired = this.acquire(maxWait, gone);
    const release = acquired instanceof Promise ? await acquired : acquired;
    try {
      const until = this.now() + (deadline - performance.now());
      // The request is the sender's own, made for this call: completed here rather than copied.
      request.deadline = deadline;
      if (this.windows.length > 0) request.beforeRetry = () => this.pace(until);
      return await client.send(request);
    } finally {
      release();
    }
  }

  /**
   * 0 when a request may start now; else ms until a window frees (Infinity when waiting for a concurrency slot, or for
   * a lease of shared tokens: its release or answer drains the queue again).
   */
  private admissible(now: number): number {
    if (this.concurrency > 0 && this.active >= this.concurrency) return Number.POSITIVE_INFINITY;
    const wait = this.windowWait(0, now);
    if (wait > 0) return wait;
    return this.leased && this.lease(now) ? Number.POSITIVE_INFINITY : 0;
  }

  /**
   * Undefined when every shared window holds a token here; else the lease it asks for (at most one in flight per
   * window), for the calls waiting and free slots, at most the smallest window's limit.
   */
  private lease(now: number): Promise<void> | undefined {
    for (const { tokens } of this.windows) {
      if (!tokens || tokens.held(now) >= 1) continue;
      const slots = this.concurrency > 0 ? Math.max(1, this.concurrency - this.active) : Number.POSITIVE_INFINITY;
      return tokens.request(Math.min(Math.max(1, this.waiting + this.pacing), slots, this.smallestLimit));
    }
    return undefined;
  }

  private windowWait(ahead: number, now: number): number {
    let wait = 0;
    for (const window of this.windows) wait = Math.max(wait, window.freeInBehind(ahead, now));
    return wait;
  }

  private start(now: number): Release {
    this.active++;
    for (const window of this.windows) window.take(now, this.waiting === 0);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.drain();
    };
  }

  /** Admits waiting calls in order while slots are free; bounded by the queue's length. */
  private drain(): void {
    if (this.waiting === 0 || this.pacing > 0) return;
    const now = this.now();
    while (this.head < this.queue.length) {
      const waiter = this.queue[this.head] as Waiter;
      if (!waiter.done && waiter.gone?.()) {
        this.settle(waiter);
        waiter.reject(this.refusal('the caller went away while waiting', 0));
      }
      if (waiter.done) {
        this.head++;
        continue;
      }
      const wait = this.admissible(now);
      if (wait === Number.POSITIVE_INFINITY) break; // a release, or a lease's answer, drains again
      if (wait > 0) {
        this.refuseLate(now, wait);
        if (this.wake === undefined) {
          this.wake = setTimeout(() => {
            this.wake = undefined;
            this.drain();
          }, Math.ceil(wait));
        }
        break;
      }
      this.settle(waiter);
      this.head++;
      waiter.resolve(this.start(now));
    }
    // Compacts the queue once its consumed head is long (amortised O(1) per call).
    if (this.head > 64 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  /**
   * Refuses at once the waiting calls that cannot start before their wait ends, now that no call can start for
   * `wait` ms (what a lease of shared tokens learns only once asked: the budget of every instance is spent).
   */
  private refuseLate(now: number, wait: number): void {
    for (let i = this.head; i < this.queue.length; i++) {
      const waiter = this.queue[i] as Waiter;
      if (waiter.done || waiter.until >= now + wait) continue;
      this.settle(waiter);
      waiter.reject(this.refusal(this.rateText(), wait));
    }
  }

  private settle(waiter: Waiter): void {
    waiter.done = true;
    clearTimeout(waiter.timer);
    this.waiting--;
  }

  private expire(waiter: Waiter, waitedMs: number): void {
    if (waiter.done) return;
    this.settle(waiter);
    const now = this.now();
    const blocked = this.concurrency > 0 && this.active >= this.concurrency;
    const reason = blocked ? `${this.inFlight()} and none finished within ${Math.round(waitedMs)} ms` : this.rateText();
    waiter.reject(this.refusal(reason, blocked ? 0 : this.windowWait(0, now)));
    this.drain();
  }

  private inFlight(): string {
    return `${this.active} ${this.active === 1 ? 'request is' : 'requests are'} in flight (at most ${this.concurrency})`;
  }

  private rateText(): string {
    return `at most ${this.windows.map((w) => `${w.limit} ${w.limit === 1 ? 'request' : 'requests'} ${w.unit}`).join(' and ')} are sent`;
  }

  /** 429 with the wait in `Retry-After` and in the message (MCP clients see only the body); at least 1 s. */
  private refusal(reason: string, waitMs: number): GatewayError {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    return new GatewayError('rate_limited', `Too many requests to ${this.name} on this connection: ${reason}; retry after ${seconds} s`, {
      retryAfter: seconds,
    });
  }
}

interface Resolved {
  concurrency: number;
  limits: UpstreamLimits;
  connections: Map<string, ConnectionLimiter>;
}

/**
 * Every connection's slots (see {@link ConnectionLimiter}), created on a connection's first upstream request and kept
 * while the process runs (one per connection that was used). An integration with no limit at all costs one map lookup.
 */
export class UpstreamLimiter {
  private readonly options: UpstreamLimitOptions;
  private readonly integrations = new Map<string, Resolved | null>();

  /** `shared`: windows whose budget every instance shares (PostgreSQL's per-minute and per-hour: shared-windows.ts). */
  constructor(
    options: Partial<UpstreamLimitOptions> = {},
    private readonly now?: () => number,
    private readonly shared?: SharedWindows,
  ) {
    this.options = { ...DEFAULT_UPSTREAM_LIMIT_OPTIONS, ...options };
    for (const [service, limits] of Object.entries(this.options.services)) {
      const problem = upstreamLimitsProblem(limits);
      if (problem) throw new Error(`upstream limits of ${service}: ${problem}`);
    }
  }

  /** The limits in force for an integration: the override, else the plugin's declaration, with the default cap. */
  limitsOf(integration: RegisteredIntegration): Required<UpstreamLimits> {
    const limits = this.options.services[integration.service] ?? integration.plugin.upstream.limits ?? {};
    return {
      concurrency: limits.concurrency ?? this.options.maxConcurrency,
      perSecond: limits.perSecond ?? 0,
      perMinute: limits.perMinute ?? 0,
      perHour: limits.perHour ?? 0,
    };
  }

  /** The slots of a connection (workspace + service); undefined when its integration has no limit. */
  connection(integration: RegisteredIntegration, workspaceId: string): ConnectionLimiter | undefined {
    let resolved = this.integrations.get(integration.service);
    if (resolved === undefined) {
      const limits = this.limitsOf(integration);
      const limited = limits.concurrency > 0 || limits.perSecond > 0 || limits.perMinute > 0 || limits.perHour > 0;
      resolved = limited ? { concurrency: limits.concurrency, limits, connections: new Map() } : null;
      this.integrations.set(integration.service, resolved);
    }
    if (resolved === null) return undefined;
    let limiter = resolved.connections.get(workspaceId);
    if (!limiter) {
      const { queueLength } = this.options;
      const { shared } = this;
      const { service } = integration;
      limiter = new ConnectionLimiter(
        integration.plugin.displayName,
        resolved.concurrency,
        resolved.limits,
        queueLength,
        this.now,
        shared && ((window, landed) => shared({ service, workspaceId, ...window }, landed)),
      );
      resolved.connections.set(workspaceId, limiter);
    }
    return limiter;
  }

  /** Sends one upstream request of a connection within its limits; without a workspace (or limits), directly. */
  send(
    client: UpstreamClient,
    integration: RegisteredIntegration,
    request: PreparedRequest,
    connection?: ConnectionCall,
  ): Promise<UpstreamResponse> {
    const limiter = connection && this.connection(integration, limitKey(connection));
    return limiter ? limiter.send(client, request, this.options.queueWaitMs, connection.callerGone) : client.send(request);
  }
}
