// What the shared-window tests drive an upstream call through: an upstream stand-in, a plugin without declared limits,
// a gateway instance's limiter leasing from a store, and one call's outcome (shared-windows.test.ts on stand-in stores,
// shared-windows-postgres.e2e.test.ts on PostgreSQL).
import type { UpstreamResponse } from '../contract/operation.js';
import { definePlugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import type { UpstreamLimits } from '../contract/upstream-limits.js';
import { GatewayError } from '../errors.js';
import { type Logger, silentLogger } from '../logger.js';
import { examplePlugin } from '../testing/example-plugin.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import { UpstreamLimiter } from './limits.js';
import { type QuotaLeases, sharedWindows } from './shared-windows.js';

export const OK: UpstreamResponse = { status: 200, headers: {}, body: { ok: true } };
export const request: PreparedRequest = { method: 'GET', url: 'http://127.0.0.1:1/items' };

/** An upstream stand-in answering at once and recording when each request reached it. */
export function upstream() {
  const sent: number[] = [];
  const client = {
    options: { timeoutMs: 30_000, retryLimit: 0, retryAfterCapMs: 0 },
    send: async () => {
      sent.push(performance.now());
      return OK;
    },
  } as unknown as UpstreamClient;
  return { client, sent };
}

const registry = new Registry();
export const quoted = registry.register(
  definePlugin({ ...examplePlugin, service: 'quoted', upstream: { ...examplePlugin.upstream, limits: {} } }),
);

/** A gateway instance's limiter whose per-minute and per-hour windows lease from `store`. */
export const instance = (store: QuotaLeases, limits: UpstreamLimits, logger: Logger = silentLogger) =>
  new UpstreamLimiter({ services: { quoted: limits } }, undefined, sharedWindows(store, logger));

/** Sends one call through `limiter`: 'sent', or the refusal's Retry-After in seconds. */
export async function call(limiter: UpstreamLimiter, client: UpstreamClient, workspaceId: string): Promise<'sent' | number> {
  try {
    await limiter.send(client, quoted, request, { workspaceId });
    return 'sent';
  } catch (error) {
    if (!(error instanceof GatewayError) || error.code !== 'rate_limited') throw error;
    return error.retryAfter as number;
  }
}
