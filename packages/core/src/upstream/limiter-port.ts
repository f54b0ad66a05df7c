import type { UpstreamResponse } from '../contract/operation.js';
import type { RegisteredIntegration } from '../contract/registry.js';
import type { PreparedRequest, UpstreamClient } from './client.js';
import {
  type ConnectionCall,
  DEFAULT_UPSTREAM_LIMIT_OPTIONS,
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

interface Shape {
  limited: boolean;
  windows: boolean;
}

/**
 * The limiter of a process whose connection slots live elsewhere: same contract and time budget as
 * {@link UpstreamLimiter.send}, each acquire, retry pacing and release a message to the broker. Integrations with no
 * limit at all never ask the broker (one map look-up, as in-process).
 */
export class BrokeredUpstreamLimiter implements UpstreamSlots {
  /** Only for the limits in force per integration (the same options as the broker's limiter): it holds no slot. */
  private readonly local: UpstreamLimiter;
  private readonly queueWaitMs: number;
  private readonly shapes = new Map<string, Shape>();

  constructor(
    options: Partial<UpstreamLimitOptions>,
    private readonly broker: SlotBroker,
  ) {
    this.local = new UpstreamLimiter(options);
    this.queueWaitMs = options.queueWaitMs ?? DEFAULT_UPSTREAM_LIMIT_OPTIONS.queueWaitMs;
  }

  send(
    client: UpstreamClient,
    integration: RegisteredIntegration,
    request: PreparedRequest,
    connection?: ConnectionCall,
  ): Promise<UpstreamResponse> {
    const shape = connection && this.shapeOf(integration);
    if (!connection || !shape?.limited) return client.send(request);
    return this.sendInSlot(client, integration.service, request, connection, shape.windows);
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
    const release = await this.broker.acquire(service, connection.workspaceId, maxWait, connection.callerGone);
    try {
      const beforeRetry = () => this.broker.pace(service, connection.workspaceId, deadline - performance.now());
      return await client.send(windows ? { ...request, deadline, beforeRetry } : { ...request, deadline });
    } finally {
      release();
    }
  }

  private shapeOf(integration: RegisteredIntegration): Shape {
    let shape = this.shapes.get(integration.service);
    if (!shape) {
      const limits = this.local.limitsOf(integration);
      const windows = limits.perSecond > 0 || limits.perMinute > 0 || limits.perHour > 0;
      shape = { limited: windows || limits.concurrency > 0, windows };
      this.shapes.set(integration.service, shape);
    }
    return shape;
  }
}
