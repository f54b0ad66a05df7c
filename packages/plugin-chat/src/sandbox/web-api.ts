// What every Web API method of the sandbox shares: its arguments, Slack's way of failing, paging cursors, and
// lookups in the workspace.
import { Buffer } from 'node:buffer';
import { sandboxNow } from '@portico/core/testing/emulator';
import { compareTs, tsKey } from '../schemas.js';
import type { SandboxChannel, SandboxState, SandboxUser, StoredMessage } from './data.js';

/** Arguments of a Web API call: query string merged with the form or JSON body, as Slack merges them. */
export type Args = Record<string, unknown>;
export type Result = Record<string, unknown>;

export interface MethodContext {
  state: SandboxState;
  /** The token the request carried. */
  token: string;
  /** `http://host:port` of the sandbox, for URLs it hands out. */
  origin: string;
}

/** Thrown by a method to answer `{ ok: false, error }` with HTTP 200, Slack's way of failing. */
export class SlackError extends Error {
  constructor(
    readonly code: string,
    readonly extra: Result = {},
  ) {
    super(code);
  }
}

export interface MethodSpec {
  /** Whether Slack reads a JSON body for this method; for the others a JSON body is ignored. */
  json: boolean;
  handle(args: Args, ctx: MethodContext): Result;
}

// ---- argument helpers ----------------------------------------------------------------------------------------------

export function str(args: Args, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

export function required(args: Args, name: string, code = 'invalid_arguments'): string {
  const value = str(args, name);
  if (value === undefined) {
    throw new SlackError(
      code,
      code === 'invalid_arguments' ? { response_metadata: { messages: [`[ERROR] missing required field: ${name}`] } } : {},
    );
  }
  return value;
}

export function bool(args: Args, name: string): boolean {
  const value = args[name];
  return value === true || value === 'true' || value === '1' || value === 1;
}

export function limitOf(args: Args, fallback: number, max: number): number {
  const raw = str(args, 'limit');
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new SlackError('invalid_limit');
  return value === 0 ? fallback : Math.min(value, max);
}

export function tsArg(args: Args, name: string, code: string): string | undefined {
  const value = str(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new SlackError(code);
  return value;
}

// ---- cursors: base64 of "<kind>:<key of the first item of the next page>", like Slack's ---------------------------

export function encodeCursor(kind: string, key: string): string {
  return Buffer.from(`${kind}:${key}`, 'utf8').toString('base64');
}

export function page<T>(items: readonly T[], keyOf: (item: T) => string, kind: string, args: Args, fallback: number, max: number) {
  const limit = limitOf(args, fallback, max);
  const cursor = str(args, 'cursor');
  let start = 0;
  if (cursor !== undefined) {
    const decoded = Buffer.from(cursor, 'base64').toString('utf8');
    const key = decoded.startsWith(`${kind}:`) ? decoded.slice(kind.length + 1) : undefined;
    start = key === undefined ? -1 : items.findIndex((item) => keyOf(item) === key);
    if (start < 0) throw new SlackError('invalid_cursor');
  }
  const slice = items.slice(start, start + limit);
  const next = items[start + limit];
  return { items: slice, hasMore: next !== undefined, nextCursor: next === undefined ? '' : encodeCursor(kind, keyOf(next)) };
}

// ---- lookups -------------------------------------------------------------------------------------------------------

export function findChannel(state: SandboxState, id: string | undefined): SandboxChannel {
  if (id === undefined) throw new SlackError('channel_not_found');
  const byName = id.startsWith('#') ? id.slice(1) : undefined;
  const found = state.channels.find((c) => c.id === id || (byName !== undefined && c.name === byName));
  // private conversations the bot is not in are invisible to it, exactly like missing ones
  if (!found || (found.isPrivate && !found.members.has(state.actor))) throw new SlackError('channel_not_found');
  return found;
}

/** A conversation the bot may read from or write to. */
export function memberChannel(state: SandboxState, id: string | undefined): SandboxChannel {
  const found = findChannel(state, id);
  if (!found.members.has(state.actor)) throw new SlackError('not_in_channel');
  return found;
}

export function findMessage(target: SandboxChannel, ts: string | undefined, code = 'message_not_found'): StoredMessage {
  const found = ts === undefined ? undefined : target.messages.find((m) => tsKey(m.ts) === tsKey(ts));
  if (!found) throw new SlackError(code);
  return found;
}

export function findUser(state: SandboxState, id: string | undefined): SandboxUser {
  const found = id === undefined ? undefined : state.users.find((u) => u.id === id);
  if (!found) throw new SlackError('user_not_found');
  return found;
}

/** The message a reaction or a pin is about: its channel (the bot a member) and its timestamp. */
export function targetMessage(args: Args, state: SandboxState): { target: SandboxChannel; message: StoredMessage } {
  if (str(args, 'timestamp') === undefined) throw new SlackError('no_item_specified');
  const target = memberChannel(state, str(args, 'channel'));
  return { target, message: findMessage(target, tsArg(args, 'timestamp', 'bad_timestamp')) };
}

export function nextTs(state: SandboxState): string {
  tick(state);
  state.sequence += 1;
  return `${state.clock}.${String(state.sequence).padStart(6, '0')}`;
}

/** Moves the clock to the sandbox's now, or one second on when now is not later: a write sorts after all before it. */
export function tick(state: SandboxState): number {
  state.clock = Math.max(state.clock + 1, Math.floor(sandboxNow() / 1000));
  return state.clock;
}

export function isTopLevel(m: StoredMessage): boolean {
  return m.threadTs === undefined || m.threadTs === m.ts || m.subtype === 'thread_broadcast';
}

export function insertMessage(target: SandboxChannel, m: StoredMessage): void {
  target.messages.push(m);
  target.messages.sort((a, b) => compareTs(a.ts, b.ts));
}
