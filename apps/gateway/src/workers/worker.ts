import cluster from 'node:cluster';
import { BrokeredUpstreamLimiter, SqliteStore } from '@portico/core';
import type { GatewayConfig } from '../config/load.js';
import { childLogger, type createLogger } from '../observability/logger.js';
import { startGateway } from '../server/start.js';
import { coordinatedStore, WorkerLink } from './link.js';
import type { FromWorker } from './protocol.js';

const ignore = () => {};

/**
 * One worker of `portico serve --workers N`: a whole gateway on the port the primary shares, except that it neither
 * migrates (PORTICO_MIGRATE=never: the primary did) nor makes the first key, and borrows its upstream slots (and, on
 * SQLite, its locks, rate limit tokens and other workers' changes) from the primary, where its per-address abuse limits
 * (failed sign-ins, registrations) are counted too. Resolves once it has stopped:
 * drained at the primary's word or at its own SIGTERM; at once when the primary is gone.
 */
export async function runWorker(config: GatewayConfig, baseLogger: ReturnType<typeof createLogger>): Promise<number> {
  // the access lines stay hand-built (observability/logger.ts), with the worker's id and pid after `app`
  const logger = childLogger(baseLogger, { worker: cluster.worker?.id, pid: process.pid });
  const link = new WorkerLink({
    send(message: FromWorker) {
      // a closed channel is reported by 'disconnect'; the callback keeps a late send from throwing an 'error' event
      if (process.connected) process.send?.(message, undefined, undefined, ignore);
    },
    onMessage(listener) {
      process.on('message', listener);
    },
  });
  // Ctrl-C reaches every process of the terminal's group: the primary drains the workers, one at a time or all.
  process.on('SIGINT', ignore);
  const gateway = await startGateway({
    config: { ...config, migrate: 'never' },
    logger,
    worker: {
      wrapStore: (store) => (store instanceof SqliteStore ? coordinatedStore(store, link) : store),
      upstreamSlots: (options) => new BrokeredUpstreamLimiter(options, link),
      attempts: link,
    },
  });
  link.listening(gateway.url);
  await new Promise<void>((resolveStop) => {
    let stopping = false;
    const stop = (reason: string, drainMs?: number) => {
      if (stopping) return;
      stopping = true;
      logger.info({ reason }, 'worker shutting down');
      void gateway.close(undefined, drainMs).then(() => {
        logger.flush();
        resolveStop();
      });
    };
    link.onShutdown = () => stop('asked by the primary');
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('disconnect', () => {
      // The primary is gone (killed): no more connections come this way, and no slot can be asked for.
      link.disconnected();
      stop('the primary process is gone', 0);
    });
  });
  if (process.connected) process.disconnect();
  return 0;
}
