import { GatewayError, type Logger, MemoryAttemptWindows, type Registry, type UpstreamLimiter } from '@portico/core';
import { IdTable } from './id-table.js';
import { type FromPrimary, type FromWorker, readWorkerMessage, toWire, type WorkerRequest } from './protocol.js';

/** One worker as the primary sees it: where its answers go. */
export interface WorkerChannel {
  readonly id: number;
  send(message: FromPrimary): void;
}

interface Held {
  /** Slots and locks granted to this worker, by its request id: released when it gives them back or dies. */
  grants: IdTable<() => void>;
  dead: boolean;
}

/**
 * The primary's half of the workers' coordination: it holds what every worker of the host shares and hands it out
 * on request — the slots, queues and rate windows of each upstream connection (core's {@link UpstreamLimiter}, the
 * same object a single process uses), and, for SQLite (whose own locks and change notifications are in-process),
 * named locks, per-key rate limit buckets and the relay of change notifications; and, whatever the store, the counts
 * of the per-address abuse limits (failed sign-ins, registrations), so that each holds for the instance. It tracks
 * what each worker holds: a worker that dies has its slots and locks released, and its waiting calls are dropped when
 * their turn comes.
 */
export class CoordinationHost {
  private readonly workers = new Map<number, Held>();
  private readonly channels = new Map<number, WorkerChannel>();
  private readonly locks = new Map<string, Array<() => void>>();
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly attempts: MemoryAttemptWindows;

  constructor(
    private readonly limiter: UpstreamLimiter,
    private readonly registry: Registry,
    private readonly logger: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.attempts = new MemoryAttemptWindows(now);
  }

  /** Starts serving a worker's requests. */
  attach(channel: WorkerChannel): void {
    this.channels.set(channel.id, channel);
    this.workers.set(channel.id, { grants: new IdTable(), dead: false });
  }

  /** The worker is gone (exited or killed): whatever it held is released, whatever it waits for is dropped. */
  detach(workerId: number): number {
    const held = this.workers.get(workerId);
    this.channels.delete(workerId);
    this.workers.delete(workerId);
    if (!held) return 0;
    held.dead = true;
    const released = held.grants.size;
    for (const release of held.grants.values()) release();
    held.grants.clear();
    return released;
  }

  /** Slots and locks a worker holds now (for tests and diagnostics). */
  holding(workerId: number): number {
    return this.workers.get(workerId)?.grants.size ?? 0;
  }

  /** Handles one message of a worker; anything that is not one of ours is ignored. */
  receive(workerId: number, raw: unknown): void {
    const message = readWorkerMessage(raw);
    const held = this.workers.get(workerId);
    if (!message || !held) return;
    if (message.kind === 'portico.release') {
      held.grants.get(message.id)?.();
      return;
    }
    if (message.kind === 'portico.change') {
      for (const [id, channel] of this.channels)
        if (id !== workerId) this.post(channel, { kind: 'portico.change', change: message.change });
      return;
    }
    if (message.kind === 'portico.listening') return; // the supervisor's business
    if (message.kind === 'portico.attempt-back') {
      this.attempts.giveBack(message.key, message.ticket);
      return;
    }
    this.answer(workerId, held, message);
  }

  private answer(workerId: number, held: Held, request: WorkerRequest): void {
    let outcome: Promise<{ value?: unknown; release?: () => void }>;
    try {
      outcome = this.serve(request, held);
    } catch (error) {
      outcome = Promise.reject(error);
    }
    outcome.then(
      ({ value, release }) => {
        if (held.dead) {
          release?.(); // granted after the worker died: nobody will use it
          return;
        }
        if (release) held.grants.set(request.id, this.once(held, request.id, release));
        this.reply(workerId, { kind: 'portico.reply', id: request.id, ok: true, ...(value === undefined ? {} : { value }) });
      },
      (error: unknown) => {
        if (!(error instanceof GatewayError)) this.logger.error({ err: error, request: request.kind }, 'worker coordination failed');
        this.reply(workerId, { kind: 'portico.reply', id: request.id, ok: false, error: toWire(error) });
      },
    );
  }

  private async serve(request: WorkerRequest, held: Held): Promise<{ value?: unknown; release?: () => void }> {
    const gone = () => held.dead;
    switch (request.kind) {
      case 'portico.slot': {
        const slots = this.connection(request.service, request.workspaceId);
        return { release: slots ? await slots.acquire(Math.max(0, request.maxWaitMs), gone) : () => {} };
      }
      case 'portico.pace': {
        await this.connection(request.service, request.workspaceId)?.pace(this.now() + Math.max(0, request.maxWaitMs));
        return {};
      }
      case 'portico.lock':
        return { release: await this.lock(request.name) };
      case 'portico.tokens':
        return { value: this.lease(request.bucket, request.want, request.burst, request.perMs) };
      case 'portico.attempt':
        return { value: this.attempts.takeNow(request.key, request.limit, request.windowMs) };
    }
  }

  private connection(service: string, workspaceId: string) {
    const integration = this.registry.get(service);
    if (!integration) throw new GatewayError('internal_error', `No integration ${service} in the primary`);
    return this.limiter.connection(integration, workspaceId);
  }

  /** A FIFO lock per name: resolves with its release once every earlier holder has released. */
  private lock(name: string): Promise<() => void> {
    return new Promise((resolve) => {
      const queue = this.locks.get(name) ?? [];
      this.locks.set(name, queue);
      const release = () => {
        queue.shift();
        if (queue.length === 0) this.locks.delete(name);
        else (queue[0] as () => void)();
      };
      queue.push(() => resolve(release));
      if (queue.length === 1) (queue[0] as () => void)();
    });
  }

  /**
   * The same atomic refill-and-take as PostgreSQL's shared buckets (core's store/postgres-rate.ts), in the primary's
   * memory: whole tokens granted, up to `want`, and the tokens left.
   */
  private lease(name: string, want: number, burst: number, perMs: number): { granted: number; left: number } {
    const now = this.now();
    const bucket = this.buckets.get(name) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    const granted = Math.max(0, Math.min(Math.floor(want), Math.floor(bucket.tokens)));
    bucket.tokens -= granted;
    if (bucket.tokens >= burst) this.buckets.delete(name);
    else this.buckets.set(name, bucket);
    return { granted, left: bucket.tokens };
  }

  private once(held: Held, id: number, release: () => void): () => void {
    return () => {
      if (held.grants.take(id) !== undefined) release();
    };
  }

  private reply(workerId: number, message: FromPrimary): void {
    const channel = this.channels.get(workerId);
    if (channel) this.post(channel, message);
  }

  private post(channel: WorkerChannel, message: FromPrimary): void {
    try {
      channel.send(message);
    } catch {
      // The worker's channel closed: its exit detaches it.
    }
  }
}

/** Whether a message is one a worker sends once listening (the supervisor's business, not the host's). */
export function listeningUrl(raw: unknown): string | undefined {
  const message: FromWorker | undefined = readWorkerMessage(raw);
  return message?.kind === 'portico.listening' ? message.url : undefined;
}
