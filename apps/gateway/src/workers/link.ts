import {
  type AttemptTicket,
  type AttemptWindows,
  GatewayError,
  type SlotBroker,
  type SlotRelease,
  type Store,
  type StoreChange,
  type StoreChangeListener,
} from '@portico/core';
import { IdTable } from './id-table.js';
import { type FromPrimary, type FromWorker, fromWire, readPrimaryMessage, type WorkerRequest } from './protocol.js';

/** A worker's end of the IPC channel (the worker's `process`, or a test double). */
export interface PrimaryChannel {
  send(message: FromWorker): void;
  onMessage(listener: (message: unknown) => void): void;
}

type Pending = { resolve(value: unknown): void; reject(error: GatewayError): void };
type Ask = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

/** How long a worker waits for the primary's count of an attempt before refusing the attempt. */
export const ATTEMPT_ANSWER_MS = 5_000;

/**
 * A worker's half of the coordination (the primary's is host.ts): borrows upstream slots (a {@link SlotBroker} for
 * core's BrokeredUpstreamLimiter), counts the per-address abuse limits in the primary (core's {@link AttemptWindows}),
 * and for SQLite named locks, per-key rate limit tokens and other workers' changes.
 */
export class WorkerLink implements SlotBroker, AttemptWindows {
  private nextId = 1;
  private readonly pending = new IdTable<Pending>();
  private readonly changeListeners = new Set<StoreChangeListener>();
  private closed = false;
  /** Called when the primary asks this worker to drain and stop. */
  onShutdown: () => void = () => {};

  constructor(
    private readonly channel: PrimaryChannel,
    private readonly attemptAnswerMs = ATTEMPT_ANSWER_MS,
  ) {
    channel.onMessage((raw) => this.receive(raw));
  }

  acquire(service: string, workspaceId: string, maxWaitMs: number, gone?: () => boolean): Promise<SlotRelease> {
    return this.ask({ kind: 'portico.slot', service, workspaceId, maxWaitMs }).then(({ id }) => {
      const release = this.releaser(id);
      if (gone?.()) {
        // Its turn came after its caller went away: the slot goes back at once, the call is never sent.
        release();
        throw new GatewayError('rate_limited', 'The caller went away while waiting for an upstream slot', { retryAfter: 1 });
      }
      return release;
    });
  }

  async pace(service: string, workspaceId: string, maxWaitMs: number): Promise<void> {
    await this.ask({ kind: 'portico.pace', service, workspaceId, maxWaitMs });
  }

  /** Runs `fn` holding the host-wide lock `name`. */
  async withLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const release = this.releaser((await this.ask({ kind: 'portico.lock', name })).id);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Leases tokens of a per-key bucket the primary holds for every worker (the signature of Store.leaseTokens). */
  async leaseTokens(bucket: string, want: number, burst: number, perMs: number): Promise<{ granted: number; left: number }> {
    return (await this.ask({ kind: 'portico.tokens', bucket, want, burst, perMs })).value as { granted: number; left: number };
  }

  /**
   * Counts an attempt in the primary, for every worker of the instance. Fails closed: when the primary cannot be asked
   * (its channel closed) or does not answer within {@link ATTEMPT_ANSWER_MS}, the attempt is refused with `unavailable`
   * rather than counted by this worker alone (docs/adr/0037-limits-per-instance.md).
   */
  async take(key: string, limit: number, windowMs: number): Promise<AttemptTicket> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const asked = this.ask({ kind: 'portico.attempt', key, limit, windowMs });
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), this.attemptAnswerMs);
    });
    try {
      return (await Promise.race([asked, late])).value as AttemptTicket;
    } catch {
      throw new GatewayError('unavailable', 'This gateway worker cannot reach its primary process to count the attempt; retry', {
        retryAfter: 1,
      });
    } finally {
      clearTimeout(timer);
      asked.catch(() => {}); // an answer after the timeout, or a refusal after it, is dropped
    }
  }

  giveBack(key: string, ticket: number): void {
    this.post({ kind: 'portico.attempt-back', key, ticket });
  }

  /** Tells the other workers of a change this one wrote. */
  publishChange(change: StoreChange): void {
    this.post({ kind: 'portico.change', change });
  }

  /** Hears the changes other workers wrote. */
  onChange(listener: StoreChangeListener): () => void {
    const entry: StoreChangeListener = (change) => listener(change);
    this.changeListeners.add(entry);
    return () => this.changeListeners.delete(entry);
  }

  listening(url: string): void {
    this.post({ kind: 'portico.listening', url });
  }

  /** The channel closed (the primary is gone): whatever waits for an answer is refused. */
  disconnected(): void {
    this.closed = true;
    for (const pending of this.pending.values()) pending.reject(unavailable());
    this.pending.clear();
  }

  private ask(request: Ask): Promise<{ id: number; value: unknown }> {
    if (this.closed) return Promise.reject(unavailable());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve({ id, value }), reject });
      this.post({ ...request, id } as WorkerRequest);
    });
  }

  private releaser(id: number): SlotRelease {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.post({ kind: 'portico.release', id });
    };
  }

  private post(message: FromWorker): void {
    if (this.closed) return;
    try {
      this.channel.send(message);
    } catch {
      this.disconnected();
    }
  }

  private receive(raw: unknown): void {
    const message: FromPrimary | undefined = readPrimaryMessage(raw);
    if (!message) return;
    if (message.kind === 'portico.shutdown') {
      this.onShutdown();
      return;
    }
    if (message.kind === 'portico.change') {
      for (const listener of [...this.changeListeners]) {
        try {
          listener({ ...message.change });
        } catch {
          // as core's ChangeHub: a listener drops caches and must not break the others
        }
      }
      return;
    }
    const pending = this.pending.take(message.id);
    if (!pending) return;
    if (message.ok) pending.resolve(message.value);
    else pending.reject(fromWire(message.error));
  }
}

function unavailable(): GatewayError {
  return new GatewayError('internal_error', 'This gateway worker lost its primary process and is stopping; retry the call');
}

/**
 * A SQLite store shared by the workers of one host: its locks become host-wide (held by the primary), its per-key rate
 * limit leases from one bucket per key (in the primary), and each worker hears the others' changes, as instances on
 * PostgreSQL do. Everything else goes straight to the store.
 */
export function coordinatedStore(store: Store, link: WorkerLink): Store {
  store.onChange((change) => link.publishChange(change));
  const overrides: Partial<Store> = {
    withConnectionLock: (workspaceId, service, fn) => link.withLock(JSON.stringify(['connection', workspaceId, service]), fn),
    withClusterLock: (name, fn) => link.withLock(JSON.stringify(['cluster', name]), fn),
    leaseTokens: (bucket, want, burst, perMs) => link.leaseTokens(bucket, want, burst, perMs),
    onChange: (listener) => {
      const local = store.onChange(listener);
      const remote = link.onChange(listener);
      return () => {
        local();
        remote();
      };
    },
  };
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof Store];
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      let method = bound.get(property);
      if (!method) {
        method = (value as (...args: unknown[]) => unknown).bind(target);
        bound.set(property, method);
      }
      return method;
    },
  });
}
