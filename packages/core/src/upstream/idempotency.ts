import { createHash, randomUUID } from 'node:crypto';
import type { UpstreamRequest } from '../contract/operation.js';
import type { PluginDefinition } from '../contract/plugin.js';
import { GatewayError } from '../errors.js';

/** An `Idempotency-Key` as a caller may give it: 1 to 255 visible ASCII characters (no space, no control character). */
const CALLER_KEY = /^[\x21-\x7e]{1,255}$/;

/** Why a caller's idempotency key is refused, or undefined when it is fine. */
export function idempotencyKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string') return 'The idempotency key must be a string';
  return CALLER_KEY.test(key) ? undefined : 'The idempotency key must be 1 to 255 visible ASCII characters (no spaces)';
}

/** The caller's key, checked: `bad_request` when it is not one. */
export function assertIdempotencyKey(key: unknown): string {
  const problem = idempotencyKeyProblem(key);
  if (problem) throw new GatewayError('bad_request', problem);
  return key as string;
}

/** Whose call it is, for the keys of its upstream requests: the same caller's same key for the same operation. */
export interface IdempotencyScope {
  workspaceId: string;
  /** The credential (API key, grant, member): one caller's key never replays another's request. */
  caller: string;
  service: string;
  operation: string;
}

/** Requests that carry an idempotency key the application honours: safe to send again. */
const keyed = new WeakSet<UpstreamRequest>();

/**
 * The upstream keys of one call. With the caller's key, each is derived from it, its scope and the request's place in
 * the call (a `run` sends several): the same call sent again with the same key sends the same keys, which the
 * application answers as the first time. Without one, the call gets a random base of its own, so that only the
 * gateway's own retries of a request repeat its key. A key is a UUID-shaped hash: 36 characters, within every limit
 * an application documents (QuickBooks: 50).
 */
export class CallKeys {
  private readonly base: string;
  private sent = 0;

  constructor(
    private readonly declared: PluginDefinition['upstream']['idempotencyKey'],
    scope: IdempotencyScope,
    callerKey: string | undefined,
  ) {
    this.base =
      callerKey === undefined ? randomUUID() : JSON.stringify([scope.workspaceId, scope.caller, scope.service, scope.operation, callerKey]);
  }

  /**
   * The request with its key in the place the plugin declares; as it is for a GET, for a plugin that declares none, and
   * for an absolute URL (an address the application handed out, such as a pre-signed upload URL: not its API).
   */
  apply(request: UpstreamRequest): UpstreamRequest {
    if (!this.declared || request.method === 'GET' || request.url !== undefined) return request;
    const digest = createHash('sha256')
      .update(`${this.base}\u0000${this.sent++}`)
      .digest('hex');
    const key = `${digest.slice(0, 8)}-${digest.slice(8, 12)}-8${digest.slice(13, 16)}-${digest.slice(16, 20)}-${digest.slice(20, 32)}`;
    const withKey: UpstreamRequest = {
      ...request,
      query: { ...request.query, [this.declared.query]: key.slice(0, this.declared.maxLength) },
    };
    keyed.add(withKey);
    return withKey;
  }
}

/** Does this request carry an idempotency key the application honours (so that sending it twice does its work once)? */
export function carriesIdempotencyKey(request: UpstreamRequest): boolean {
  return keyed.has(request);
}
