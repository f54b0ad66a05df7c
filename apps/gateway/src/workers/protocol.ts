import { ERROR_CODES, type ErrorCode, GatewayError, type StoreChange } from '@portico/core';

// The messages between the primary of `portico serve --workers N` and its workers, over node:cluster's IPC channel.
// A worker asks (with an id of its own), the primary answers `reply` with the same id; `release`s, `change`s and
// the lifecycle messages have no answer. Every message names itself with a `portico.` kind, so that nothing else
// sent on the channel is mistaken for one.

/** What a worker asks the primary; each is answered by one `reply`. */
export type WorkerRequest =
  /** A slot of an upstream connection (upstream/limits.ts in core), within `maxWaitMs`. */
  | { kind: 'portico.slot'; id: number; service: string; workspaceId: string; maxWaitMs: number }
  /** A window slot for a retry inside a held slot, within `maxWaitMs`. */
  | { kind: 'portico.pace'; id: number; service: string; workspaceId: string; maxWaitMs: number }
  /** A named lock (SQLite: connection and cluster locks of the workers of one host). */
  | { kind: 'portico.lock'; id: number; name: string }
  /** Tokens of a per-key rate limit bucket (SQLite: one bucket per key for all workers). */
  | { kind: 'portico.tokens'; id: number; bucket: string; want: number; burst: number; perMs: number }
  /** An attempt of a per-address abuse limit (sign-ins, registrations), counted for every worker: core's AttemptWindows.take. */
  | { kind: 'portico.attempt'; id: number; key: string; limit: number; windowMs: number };

/** What a worker tells the primary, unanswered. */
export type WorkerNotice =
  /** Gives back a slot or a lock granted to the request `id`. */
  | { kind: 'portico.release'; id: number }
  /** Takes back an attempt the primary counted (a sign-in that succeeded): core's AttemptWindows.giveBack. */
  | { kind: 'portico.attempt-back'; key: string; ticket: number }
  /** A change this worker wrote (SQLite): the primary passes it on to the other workers. */
  | { kind: 'portico.change'; change: StoreChange }
  /** The worker listens (its URL); the primary prints the banner once every worker does. */
  | { kind: 'portico.listening'; url: string };

export type FromWorker = WorkerRequest | WorkerNotice;

export type FromPrimary =
  | { kind: 'portico.reply'; id: number; ok: true; value?: unknown }
  | { kind: 'portico.reply'; id: number; ok: false; error: WireError }
  | { kind: 'portico.change'; change: StoreChange }
  /** Drain and stop (the primary's SIGTERM, or a rolling restart). */
  | { kind: 'portico.shutdown' };

export interface WireError {
  code: ErrorCode;
  message: string;
  retryAfter?: number;
}

/** A GatewayError as it crosses the channel (anything else becomes an internal error, its text kept out). */
export function toWire(error: unknown): WireError {
  if (error instanceof GatewayError) {
    return { code: error.code, message: error.message, ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }) };
  }
  return { code: 'internal_error', message: 'Internal error' };
}

export function fromWire(wire: WireError): GatewayError {
  const code = ERROR_CODES.includes(wire.code) ? wire.code : 'internal_error';
  return new GatewayError(code, String(wire.message), wire.retryAfter === undefined ? {} : { retryAfter: wire.retryAfter });
}

const KINDS = new Set([
  'portico.slot',
  'portico.pace',
  'portico.lock',
  'portico.tokens',
  'portico.attempt',
  'portico.attempt-back',
  'portico.release',
  'portico.change',
  'portico.listening',
]);

/** The message, if it is a well-formed one from a worker (the channel carries other traffic too). */
export function readWorkerMessage(message: unknown): FromWorker | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as Record<string, unknown>;
  if (typeof m.kind !== 'string' || !KINDS.has(m.kind)) return undefined;
  if (m.kind === 'portico.change') return typeof m.change === 'object' && m.change !== null ? (m as FromWorker) : undefined;
  if (m.kind === 'portico.listening') return typeof m.url === 'string' ? (m as FromWorker) : undefined;
  if (m.kind === 'portico.attempt-back') return typeof m.key === 'string' && Number.isFinite(m.ticket) ? (m as FromWorker) : undefined;
  if (!Number.isSafeInteger(m.id)) return undefined;
  switch (m.kind) {
    case 'portico.slot':
    case 'portico.pace':
      return typeof m.service === 'string' && typeof m.workspaceId === 'string' && Number.isFinite(m.maxWaitMs)
        ? (m as FromWorker)
        : undefined;
    case 'portico.lock':
      return typeof m.name === 'string' ? (m as FromWorker) : undefined;
    case 'portico.tokens':
      return typeof m.bucket === 'string' && [m.want, m.burst, m.perMs].every(Number.isFinite) ? (m as FromWorker) : undefined;
    case 'portico.attempt':
      return typeof m.key === 'string' && [m.limit, m.windowMs].every(Number.isFinite) ? (m as FromWorker) : undefined;
    default:
      return m as FromWorker; // release
  }
}

/** The message, if it is one from the primary. */
export function readPrimaryMessage(message: unknown): FromPrimary | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const kind = (message as { kind?: unknown }).kind;
  return kind === 'portico.reply' || kind === 'portico.change' || kind === 'portico.shutdown' ? (message as FromPrimary) : undefined;
}
