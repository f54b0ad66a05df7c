import type { AuditPruneResult, Logger, Store } from '@portico/core';

const DAY_MS = 86_400_000;

export interface AuditRetentionOptions {
  /** Records older than this many days are deleted (PostgreSQL: by whole months, `Store.pruneAudit`); 0 keeps them forever (nothing runs). */
  days: number;
  /** Time between runs (default 10 minutes). */
  everyMs?: number;
  /** Time before the next run when a run stopped with older records left (default 1 s). */
  soonMs?: number;
  /** Records per DELETE statement (default 1,000), statements per run (default 100), pause between them (20 ms). */
  batchSize?: number;
  maxBatches?: number;
  pauseMs?: number;
  /** The clock (tests). */
  now?: () => number;
  /** Told how many records each run deleted (metrics). */
  onPruned?: (count: number) => void;
}

export interface AuditRetention {
  /** Runs once now (as the timer would), unless a run is in progress; resolves with what it did. */
  runNow(): Promise<AuditPruneResult | null>;
  /** Stops the timer and waits for a run in progress, so that the database can be closed after it. */
  stop(): Promise<void>;
}

/**
 * Audit retention: deletes the records older than `days` days in the background, at start and then every
 * `everyMs`. A run deletes at most `batchSize × maxBatches` records in short statements with pauses between them, so
 * that request traffic keeps its share of the database (SQLite has one writer); a run that stops with older records
 * left is followed by another after `soonMs`, so a backlog (a first start with retention on) is worked off in
 * bounded steps. With PostgreSQL, instances take turns: a run that finds another instance pruning is skipped
 * (`Store.pruneAudit`). Returns undefined when retention is off (`days` 0).
 */
export function startAuditRetention(store: Store, logger: Logger, options: AuditRetentionOptions): AuditRetention | undefined {
  if (options.days <= 0) return undefined;
  const everyMs = options.everyMs ?? 10 * 60_000;
  const soonMs = options.soonMs ?? 1_000;
  const limits = { batchSize: options.batchSize ?? 1_000, maxBatches: options.maxBatches ?? 100, pauseMs: options.pauseMs ?? 20 };
  const now = options.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<AuditPruneResult | null> | undefined;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void run(), ms);
    timer.unref();
  };

  const run = (): Promise<AuditPruneResult | null> => {
    if (running) return running;
    clearTimeout(timer);
    const cutoff = new Date(now() - options.days * DAY_MS).toISOString();
    running = store
      .pruneAudit(cutoff, limits)
      .then((result) => {
        if (result && result.deleted > 0) {
          options.onPruned?.(result.deleted);
          logger.info({ deleted: result.deleted, before: cutoff, more: result.more }, 'pruned old audit records');
        }
        schedule(result?.more ? soonMs : everyMs);
        return result;
      })
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'could not prune audit records; trying again later');
        schedule(everyMs);
        return null;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  schedule(0);
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
