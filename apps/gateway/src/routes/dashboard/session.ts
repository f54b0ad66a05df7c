import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionTable } from '@portico/core';

/** A signed-in operator: which admin key signed in (its id, never the key), and the session's CSRF token. */
export interface DashboardSession {
  /** SHA-256 of the cookie's id: what the store keeps. */
  idHash: string;
  keyId: string;
  workspaceId: string;
  /** The synchronizer token of the session's forms, derived from the cookie's id (not stored). */
  csrf: string;
}

/** A message shown once on the next page of a session (kept in this instance's memory only). */
export interface Flash {
  kind: 'ok' | 'error';
  message: string;
}

export interface SessionOptions {
  /** Ends a session not used for this long (default 30 minutes). */
  idleMs: number;
  /** Ends a session this long after sign-in, used or not (default 12 hours). */
  absoluteMs: number;
}

export const DEFAULT_SESSION_OPTIONS: SessionOptions = { idleMs: 30 * 60_000, absoluteMs: 12 * 60 * 60_000 };

/** The last-seen time is written at most this often (the idle limit is counted from it). */
const TOUCH_INTERVAL_MS = 60_000;
const FLASHES_MAX = 10_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Dashboard sessions, kept in the store (`store.sessions`), so that a session started on one instance works on every
 * instance sharing the database. The cookie carries a random 256-bit id; the store keeps only its SHA-256, so a copy
 * of the database yields no usable cookie. The CSRF token is derived from the id, so it is not stored either. Sessions
 * end on sign-out, after `idleMs` without a request, `absoluteMs` after sign-in, and with their key.
 */
export class SessionStore {
  private readonly flashes = new Map<string, Flash>();

  constructor(
    private readonly table: SessionTable,
    private readonly options: SessionOptions = DEFAULT_SESSION_OPTIONS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts a session; returns the cookie value (the only copy of the id) and the session. */
  async create(keyId: string, workspaceId: string): Promise<{ id: string; session: DashboardSession }> {
    const at = this.now();
    await this.table.prune(new Date(at).toISOString(), new Date(at - this.options.idleMs).toISOString());
    const id = randomBytes(32).toString('base64url');
    const idHash = sha256(id).toString('hex');
    await this.table.create({
      idHash,
      workspaceId,
      keyId,
      createdAt: new Date(at).toISOString(),
      lastSeenAt: new Date(at).toISOString(),
      expiresAt: new Date(at + this.options.absoluteMs).toISOString(),
    });
    return { id, session: { idHash, keyId, workspaceId, csrf: csrfOf(id) } };
  }

  /** The live session of a cookie value (its idle clock restarts), or undefined. */
  async get(id: string | undefined): Promise<DashboardSession | undefined> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const idHash = sha256(id).toString('hex');
    const record = await this.table.get(idHash);
    if (!record) return undefined;
    const at = this.now();
    const seen = Date.parse(record.lastSeenAt);
    if (at >= Date.parse(record.expiresAt) || at - seen > this.options.idleMs) {
      await this.table.delete(idHash);
      this.flashes.delete(idHash);
      return undefined;
    }
    if (at - seen >= TOUCH_INTERVAL_MS) await this.table.touch(idHash, new Date(at).toISOString());
    return { idHash, keyId: record.keyId, workspaceId: record.workspaceId, csrf: csrfOf(id) };
  }

  async destroy(id: string | undefined): Promise<void> {
    if (!id) return;
    const idHash = sha256(id).toString('hex');
    this.flashes.delete(idHash);
    await this.table.delete(idHash);
  }

  /** Ends every session of a key (it was revoked, or is no longer an admin key). */
  async destroyKey(keyId: string): Promise<void> {
    await this.table.deleteOfKey(keyId);
  }

  flash(session: DashboardSession, flash: Flash): void {
    if (this.flashes.size >= FLASHES_MAX) this.flashes.clear();
    this.flashes.set(session.idHash, flash);
  }

  /** The session's message, once. */
  takeFlash(session: DashboardSession): Flash | undefined {
    const flash = this.flashes.get(session.idHash);
    this.flashes.delete(session.idHash);
    return flash;
  }
}

/** The session's CSRF token: a hash of its id under a label of its own, so that neither gives the other away. */
function csrfOf(id: string): string {
  return sha256(`portico dashboard csrf\u0000${id}`).toString('base64url');
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function csrfMatches(session: DashboardSession, submitted: unknown): boolean {
  if (typeof submitted !== 'string' || submitted.length === 0) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Failed sign-ins per client address in a sliding window (default 10 a minute). While an address is at its limit,
 * every sign-in from it is refused, a right key too, until the oldest failure leaves the window: `wait` answers how
 * many seconds that is (0: go ahead), `failed` counts a failure. Successful sign-ins cost nothing.
 */
export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  wait(address: string): number {
    const at = this.now();
    const recent = this.recent(address, at);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil(((recent[0] ?? at) + this.windowMs - at) / 1000));
  }

  /**
   * Counts an attempt before its key is checked, so that attempts sent at once cannot all be checked: `wait` > 0 (seconds)
   * when the address is over the limit (nothing is checked), else the attempt is held against it until `succeeded`
   * takes it back (a failure stays counted).
   */
  reserve(address: string): { wait: number; succeeded: () => void } {
    const wait = this.wait(address);
    if (wait > 0) return { wait, succeeded: () => {} };
    const at = this.failed(address);
    return {
      wait: 0,
      succeeded: () => {
        const times = this.failures.get(address) ?? [];
        const index = times.lastIndexOf(at);
        if (index >= 0) times.splice(index, 1);
        if (times.length === 0) this.failures.delete(address);
      },
    };
  }

  failed(address: string): number {
    const at = this.now();
    if (this.failures.size > 10_000) this.prune(at);
    this.failures.set(address, [...this.recent(address, at), at]);
    return at;
  }

  private recent(address: string, at: number): number[] {
    const recent = (this.failures.get(address) ?? []).filter((t) => at - t < this.windowMs);
    if (recent.length === 0) this.failures.delete(address);
    else this.failures.set(address, recent);
    return recent;
  }

  private prune(at: number): void {
    for (const [address, times] of this.failures) if (times.every((t) => at - t >= this.windowMs)) this.failures.delete(address);
  }
}
