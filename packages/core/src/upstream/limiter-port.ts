import type { UpstreamResponse } from '../contract/operation.js';
import type { RegisteredIntegration } from '../contract/registry.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import {
  type ConnectionCall,
  DEFAULT_UPSTREAM_LIMIT_OPTIONS,
  limitKey,
  MAX_WAIT_SHARE,
  UpstreamLimiter,
  type UpstreamLimitOptions,
} from './limits.js';

/**
 * What the upstream sender needs of a limiter: send one request of a connection within its limits. The in-process
 * {@link UpstreamLimiter} is one; {@link BrokeredUpstreamLimiter} (several worker processes of one host sharing the
 * slots another process holds) is the other.
 */
export interface UpstreamSlots {
  send(
    client: UpstreamClient,
    integration: RegisteredIntegration,
    request: PreparedRequest,
    connection?: ConnectionCall,
  ): Promise<UpstreamResponse>;
}

/** Releases a slot; calling it again does nothing. */
export type SlotRelease = () => void;

/**
 * The process that holds the real slots, seen from one that borrows them (the gateway's workers ask their primary
 * over cluster IPC). Refusals are 429 `rate_limited` GatewayErrors with `retryAfter`, as the in-process limiter's.
 */
export interface SlotBroker {
  /**
   * A slot of the connection (service + workspace), waiting at most `maxWaitMs`. `gone` is asked when the slot is
   * granted: a caller that went away meanwhile gives it back at once and the call is refused, never sent.
   */
  acquire(service: string, workspaceId: string, maxWaitMs: number, gone?: () => boolean): Promise<SlotRelease>;
  /** A window slot for a retry of a request that holds its concurrency slot, waiting at most `maxWaitMs`. */
  pace(service: string, workspaceId: string, maxWaitMs: number): Promise<void>;
}

/** How a connection of an integration is limited in a process that borrows its slots. */
type Shape =
  /** Declared limits (the plugin's or the operator's): every worker shares them, through the broker. */
  | { via: 'broker'; windows: boolean }
  /** Only the default cap (PORTICO_UPSTREAM_MAX_CONCURRENCY), in this process: no round trip for what nobody declared. */
  | { via: 'local' }
  /** No limit at all. */
  | { via: 'none' };

/**
 * The limiter of a process whose connection slots live elsewhere: same contract and time budget as
 * {@link UpstreamLimiter.send}, each acquire, retry pacing and release a message to the broker. Only integrations
 * with declared limits (the plugin's, an operator's override, a sandbox's) ask the broker; the default cap of those
 * that declare none stays in this process, per process, and an integration with no limit costs a map look-up.
 */
export class BrokeredUpstreamLimiter implements UpstreamSlots {
  /** The limits in force per integration (the same options as the broker's limiter), and the default cap's slots. */
  private readonly local: UpstreamLimiter;
  private readonly queueWaitMs: number;
  private readonly overrides: Readonly<Record<string, unknown>>;
  private readonly shapes = new Map<string, Shape>();

  constructor(
    options: Partial<UpstreamLimitOptions>,
    private readonly broker: SlotBroker,
  ) {
    this.local = new UpstreamLimiter(options);
    this.queueWaitMs = options.queueWaitMs ?? DEFAULT_UPSTREAM_LIMIT_OPTIONS.queueWaitMs;
    this.overrides = options.services ?? {};
  }

  send(
    client: UpstreamClient,
    integration: RegisteredIntegration,
    request: PreparedRequest,
    connection?: ConnectionCall,
  ): Promise<UpstreamResponse> {
    if (!connection) return client.send(request);
    const shape = this.shapeOf(integration);
    if (shape.via === 'broker') return this.sendInSlot(client, integration.service, request, connection, shape.windows);
    return shape.via === 'local' ? this.local.send(client, integration, request, connection) : client.send(request);
  }

  private async sendInSlot(
    client: UpstreamClient,
    service: string,
    request: PreparedRequest,
    connection: ConnectionCall,
    windows: boolean,
  ): Promise<UpstreamResponse> {
    const budget = client.options.timeoutMs;
    const deadline = performance.now() + budget;
    const maxWait = Math.min(this.queueWaitMs, budget * MAX_WAIT_SHARE);
    const release = await this.broker.acquire(service, limitKey(connection), maxWait, connection.callerGone);
    try {
      const beforeRetry = () => this.broker.pace(service, limitKey(connection), deadline - performance.now());
      // The request is the sender's own, made for this call: completed here rather than copied.
      request.deadline = deadline;
      if (windows) request.beforeRetry = beforeRetry;
      return await client.send(request);
    } finally {
      release();
    }
  }

  private shapeOf(integration: RegisteredIntegration): Shape {
    let shape = this.shapes.get(integration.service);
    if (!shape) {
      const limits = this.local.limitsOf(integration);
      const windows = limits.perSecond > 0 || limits.perMinute > 0 || limits.perHour > 0;
      const declared = Object.hasOwn(this.overrides, integration.service) || integration.plugin.upstream.limits !== undefined;
      if (!windows && limits.concurrency === 0) shape = { via: 'none' };
      else shape = declared ? { via: 'broker', windows } : { via: 'local' };
      this.shapes.set(integration.service, shape);
    }
    return shape;
  }
}
