import type { Store } from '@portico/core';

/** A dependency whose failure makes the instance unready (named in the readiness answer). */
export type ReadinessProblem = 'database' | 'listen' | 'migrations' | 'draining';

/** How long the database may take to answer the readiness ping before it counts as down. */
export const READINESS_PING_TIMEOUT_MS = 2_000;

/**
 * What a readiness probe asks: may a balancer send this instance calls? Not while the database does not answer, the
 * LISTEN connection (PostgreSQL) is down (its caches could miss a revoke made elsewhere), migrations are pending, or
 * the instance is draining before it stops. Liveness (`/healthz`) asks none of this.
 */
export class Readiness {
  private drainingSince: number | undefined;

  constructor(
    private readonly store: Store,
    /** Migrations the code knows but the database lacks (undefined: not known, e.g. not checked). */
    private readonly pendingMigrations: () => number = () => 0,
  ) {}

  /** From now on the instance answers not ready, for good: it is about to stop. */
  startDraining(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** The failing dependencies, in a fixed order; empty when ready. */
  async problems(): Promise<ReadinessProblem[]> {
    const problems: ReadinessProblem[] = [];
    if (this.draining) problems.push('draining');
    if (!(await pingWithin(this.store, READINESS_PING_TIMEOUT_MS))) problems.push('database');
    if (this.store.listening && !this.store.listening()) problems.push('listen');
    if (this.pendingMigrations() > 0) problems.push('migrations');
    return problems;
  }
}

async function pingWithin(store: Store, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([store.ping().then(() => true as const), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
