import cluster, { type Worker } from 'node:cluster';
import { hasQuotaLeases, sharedWindows, silentLogger, UpstreamLimiter } from '@portico/core';
import { ConfigError, type GatewayConfig } from '../config/load.js';
import type { createLogger } from '../observability/logger.js';
import { openRuntime, type Runtime } from '../runtime/runtime.js';
import { upstreamLimitOptions } from '../runtime/upstream-limits.js';
import { startFlags } from '../runtime/v8-flags.js';
import { createInitialKey, type RunningGateway } from '../server/start.js';
import { CoordinationHost, listeningUrl } from './host.js';
import type { FromPrimary } from './protocol.js';

type PinoLogger = ReturnType<typeof createLogger>;

/** A worker that ran at least this long before dying is not crash-looping: its replacement starts at once. */
const STABLE_MS = 10_000;
/** Replacements of a crash-looping worker wait this long, doubling per crash in a row, up to {@link MAX_BACKOFF_MS}. */
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;
/** Past its drain and grace periods, a worker that still has not exited is killed. */
const EXIT_BACKSTOP_MS = 5_000;

export interface PrimaryOptions {
  config: GatewayConfig;
  logger: PinoLogger;
  /** Told once every worker listens: the URL, the installed services and the key made at this start. */
  ready(url: string, runtime: Pick<Runtime, 'registry'>, createdKey: RunningGateway['createdKey']): void;
}

/** Why `serve` cannot run several workers with this configuration, or undefined. */
export function workersProblem(config: GatewayConfig, sandbox: boolean): string | undefined {
  if (sandbox) return '--sandbox runs one worker: its emulators and their data live in the process';
  if (config.databaseUrl === ':memory:')
    return 'PORTICO_DATABASE_URL=:memory: is one process’s database: use a file or PostgreSQL with workers';
  if (config.mcpLegacySse) return 'PORTICO_MCP_LEGACY_SSE=on needs one worker: its sessions live in the process that opened them';
  return undefined;
}

/**
 * The primary of `portico serve --workers N`: migrates and makes the first operator key (once, before any worker
 * starts), forks the workers onto one shared port, holds the upstream slots they share (host.ts), replaces a worker
 * that dies (backing off if it keeps dying), restarts them one at a time on SIGHUP, and on SIGTERM or SIGINT drains
 * them all and exits. Resolves with the exit code.
 */
export async function runPrimary({ config, logger, ready }: PrimaryOptions): Promise<number> {
  const problem = workersProblem(config, false);
  if (problem) throw new ConfigError(`Invalid configuration:\n  - ${problem}`);
  const runtime = await openRuntime(config, logger, { waitForDatabaseMs: config.databaseWaitSeconds * 1000 });
  let createdKey: RunningGateway['createdKey'];
  // The primary serves no request. It keeps the database only on PostgreSQL, where the per-minute and per-hour
  // windows of the slots it holds lease their tokens from the budget every instance shares (upstream/shared-windows).
  const leases = hasQuotaLeases(runtime.store) ? runtime.store : undefined;
  try {
    createdKey = await createInitialKey(runtime);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  if (!leases) await runtime.close();
  try {
    const shared = leases ? sharedWindows(leases, logger) : undefined;
    const limiter = new UpstreamLimiter(upstreamLimitOptions(runtime.registry, config, silentLogger), undefined, shared);
    const host = new CoordinationHost(limiter, runtime.registry, logger);
    const supervisor = new Supervisor(config, logger, host);
    const url = await supervisor.start();
    if (url === undefined) return 1;
    ready(url, runtime, createdKey);
    return await supervisor.serve();
  } finally {
    if (leases) await runtime.close();
  }
}

class Supervisor {
  private readonly live = new Map<number, { worker: Worker; startedAt: number; listening: boolean }>();
  /** Workers being stopped on purpose (shutdown, rolling restart): their exit is not replaced. */
  private readonly retiring = new Set<number>();
  private stopping = false;
  /** Every first worker listens: from then on, one that dies is replaced (before, the start fails). */
  private started = false;
  private crashes = 0;
  /** Replacements waiting out their back-off (one per dead worker). */
  private readonly restartTimers = new Set<ReturnType<typeof setTimeout>>();
  private rolling: Promise<void> | undefined;

  constructor(
    private readonly config: GatewayConfig,
    private readonly logger: PinoLogger,
    private readonly host: CoordinationHost,
  ) {}

  /** Forks every worker; the URL once all listen, or undefined if one could not start (its error is on stderr). */
  async start(): Promise<string | undefined> {
    // every worker, replacements too, starts with the young generation's size fixed (runtime/v8-flags.ts), unless
    // node's command line sizes it
    cluster.setupPrimary({ execArgv: [...process.execArgv, ...startFlags(process.execArgv)] });
    const starting = Array.from({ length: this.config.workers }, () => this.fork());
    try {
      const urls = await Promise.all(starting.map((worker) => this.listening(worker)));
      this.started = true;
      this.logger.info({ workers: urls.length, pids: starting.map((w) => w.process.pid) }, 'workers listening');
      return urls[0];
    } catch (error) {
      this.logger.error({ reason: (error as Error).message }, 'a worker could not start: stopping the others');
      await this.stopAll();
      return undefined;
    }
  }

  /** Resolves with the exit code once SIGTERM or SIGINT has drained and stopped every worker. */
  serve(): Promise<number> {
    process.on('SIGHUP', () => {
      this.rolling ??= this.roll().finally(() => {
        this.rolling = undefined;
      });
    });
    return new Promise((resolve) => {
      const stop = (signal: string) => {
        this.logger.info({ signal, workers: this.live.size }, 'shutting down: draining every worker');
        void this.stopAll().then(() => {
          this.logger.info({}, 'every worker stopped');
          this.logger.flush();
          resolve(0);
        });
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    });
  }

  private fork(): Worker {
    const worker = cluster.fork();
    const id = worker.id;
    const entry = { worker, startedAt: performance.now(), listening: false };
    this.live.set(id, entry);
    this.listening(worker).then(
      () => {
        entry.listening = true;
      },
      () => {},
    );
    this.host.attach({
      id,
      send(message: FromPrimary) {
        if (worker.isConnected()) worker.send(message);
      },
    });
    worker.on('message', (message: unknown) => this.host.receive(id, message));
    worker.on('error', (error: Error) => this.logger.warn({ worker: id, err: error }, 'worker channel error'));
    worker.on('exit', (code: number | null, signal: string | null) => this.exited(worker, code, signal));
    return worker;
  }

  private exited(worker: Worker, code: number | null, signal: string | null): void {
    const entry = this.live.get(worker.id);
    this.live.delete(worker.id);
    const released = this.host.detach(worker.id);
    if (this.retiring.delete(worker.id) || this.stopping || !this.started) return;
    const upMs = entry ? performance.now() - entry.startedAt : 0;
    this.crashes = upMs >= STABLE_MS ? 0 : this.crashes + 1;
    const delayMs = this.crashes <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.crashes - 2));
    this.logger.warn(
      { pid: worker.process.pid, code, signal, releasedSlots: released, restartInMs: delayMs, crashesInARow: this.crashes },
      'a worker exited unexpectedly: starting a replacement',
    );
    const replace = () => {
      if (this.stopping) return;
      const fresh = this.fork();
      this.listening(fresh).then(
        () => this.logger.info({ pid: fresh.process.pid }, 'replacement worker listening'),
        () => {}, // its exit is handled (and replaced again, later) by exited()
      );
    };
    if (delayMs === 0) {
      replace();
      return;
    }
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      replace();
    }, delayMs);
    this.restartTimers.add(timer);
  }

  /** Resolves with the worker's URL once it listens; rejects if it exits first. */
  private listening(worker: Worker): Promise<string> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: unknown) => {
        const url = listeningUrl(message);
        if (url === undefined) return;
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        resolve(url);
      };
      const onExit = (code: number | null, signal: string | null) => {
        worker.off('message', onMessage);
        reject(new Error(`worker ${worker.process.pid} exited before listening (${signal ?? code})`));
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
    });
  }

  /** SIGHUP: each worker in turn is replaced by a fresh one, which listens before the old one drains and stops. */
  private async roll(): Promise<void> {
    this.logger.info({ workers: this.live.size }, 'rolling restart of the workers');
    for (const { worker } of [...this.live.values()]) {
      if (this.stopping) return;
      const fresh = this.fork();
      try {
        await this.listening(fresh);
      } catch {
        this.logger.error({}, 'rolling restart stopped: a new worker could not start');
        return;
      }
      await this.retire(worker);
    }
    this.logger.info({ workers: this.live.size }, 'rolling restart done');
  }

  private async stopAll(): Promise<void> {
    this.stopping = true;
    for (const timer of this.restartTimers) clearTimeout(timer);
    this.restartTimers.clear();
    await this.rolling;
    await Promise.all([...this.live.values()].map(({ worker }) => this.retire(worker)));
  }

  /** Asks a worker to drain and stop; kills it past its drain and grace periods. */
  private retire(worker: Worker): Promise<void> {
    if (worker.isDead()) return Promise.resolve();
    const listening = this.live.get(worker.id)?.listening ?? false;
    this.retiring.add(worker.id);
    return new Promise((resolve) => {
      const limit = this.config.drainSeconds * 1000 + this.config.shutdownGraceMs + EXIT_BACKSTOP_MS;
      const kill = setTimeout(() => worker.process.kill('SIGKILL'), limit);
      worker.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      // A worker still starting has nothing to drain (and does not hear the primary yet).
      if (listening && worker.isConnected()) worker.send({ kind: 'portico.shutdown' } satisfies FromPrimary);
      else worker.process.kill('SIGTERM');
    });
  }
}
