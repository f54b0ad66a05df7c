import type { WindowTokens } from './shared-windows.js';

/**
 * The start times of the last `limit` requests of this process (a ring): a sliding window, exact, O(1) per request.
 * A shared window (`tokens`: PostgreSQL's per-minute and per-hour windows) also needs a token of the budget all
 * instances share, leased in batches (shared-windows.ts).
 */
export class Window {
  private readonly stamps: number[] = [];
  private next = 0;

  constructor(
    readonly limit: number,
    readonly ms: number,
    readonly unit: string,
    readonly tokens?: WindowTokens,
  ) {}

  /** ms until one more request may start (0: now). */
  freeIn(now: number): number {
    if (this.stamps.length < this.limit) return 0;
    return Math.max(0, (this.stamps[this.next] as number) + this.ms - now);
  }

  /** ms until a request with `ahead` others before it may start, at the earliest (a lower bound). */
  freeInBehind(ahead: number, now: number): number {
    const local = this.localFreeInBehind(ahead, now);
    if (!this.tokens || this.tokens.held(now) > ahead) return local;
    return Math.max(local, this.tokens.blockedFor(now));
  }

  private localFreeInBehind(ahead: number, now: number): number {
    const free = this.limit - this.stamps.length;
    if (ahead < free) return 0;
    const index = ahead - free;
    // Beyond one window's worth of waiting requests, at least a whole window.
    if (index >= this.stamps.length) return this.ms;
    return Math.max(0, (this.stamps[(this.next + index) % this.limit] as number) + this.ms - now);
  }

  /** `idle`: no call waits behind this one (a shared window may lease ahead for calls to come). */
  take(now: number, idle = true): void {
    this.tokens?.take(now, idle);
    if (this.stamps.length < this.limit) this.stamps.push(now);
    else {
      this.stamps[this.next] = now;
      this.next = (this.next + 1) % this.limit;
    }
  }
}
