import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type AttemptWindows, MemoryAttemptWindows, type SessionTable } from '@portico/core';

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
 * Failed sign-ins per client address in a sliding window (default 10 a minute), counted where the engine counts its
 * per-address limits (`engine.attempts`: this process, or the primary of `serve --workers N` for all its workers).
 * While an address is at its limit, every sign-in from it is refused, a right key too, until the oldest failure leaves
 * the window. Successful sign-ins cost nothing.
 */
export class AttemptLimiter {
  constructor(
    private readonly windows: AttemptWindows = new MemoryAttemptWindows(),
    private readonly limit = 10,
    private readonly windowMs = 60_000,
  ) {}

  /**
   * Counts an attempt before its key is checked, so that attempts sent at once cannot all be checked: `wait` > 0 (seconds)
   * when the address is over the limit (nothing is checked), else the attempt is held against it until `succeeded`
   * takes it back (a failure stays counted). Rejects when the count cannot be asked (a worker cut off from its primary).
   */
  async reserve(address: string): Promise<{ wait: number; succeeded: () => void }> {
    const key = `sign-in\u0000${address}`;
    const taken = await this.windows.take(key, this.limit, this.windowMs);
    if (taken.ticket === undefined) return { wait: taken.wait, succeeded: () => {} };
    const { ticket } = taken;
    return { wait: 0, succeeded: () => this.windows.giveBack(key, ticket) };
  }
}
