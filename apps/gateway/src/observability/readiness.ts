import { type Logger, type ProbeCheck, type Store, silentLogger } from '@portico/core';

/** A dependency whose failure makes the instance unready (named in the readiness answer). */
export type ReadinessProblem = 'database' | 'listen' | 'migrations' | 'credentials' | 'draining';

/** How long the database may take to answer the readiness ping before it counts as down. */
export const READINESS_PING_TIMEOUT_MS = 2_000;

/** What `/readyz` answers: the failing dependencies, and a message naming each (with detail where there is some). */
export interface ReadinessReport {
  failing: ReadinessProblem[];
  message: string;
}

/**
 * What a readiness probe asks: may a balancer send this instance calls? Not while the database does not answer, the
 * LISTEN connection (PostgreSQL) is down (its caches could miss a revoke made elsewhere), the database's schema is older
 * than this code (migrations pending: a database restored or replaced under a running instance), or the instance is
 * draining before it stops. A schema newer than the code (a newer instance migrated during a rolling upgrade) leaves
 * it ready — migrations only add, so old instances keep serving until they are replaced (docs/deploy.md, "Upgrades") —
 * and is said in one warning line. Nor while this instance cannot open the encryption probe, the value sealed with the
 * key the cluster seals credentials with (a wrong or missing PORTICO_ENCRYPTION_KEY): it would fail every upstream call.
 * Liveness (`/healthz`) asks none of this.
 */
export class Readiness {
  private drainingSince: number | undefined;
  /** The newest schema version already warned about (one warning per version, not one per probe). */
  private warnedNewer = 0;

  /** The key id last logged as missing (one error line per key, not one per probe). */
  private saidMissing: string | undefined;

  constructor(
    private readonly store: Store,
    private readonly logger: Logger = silentLogger,
    /** Whether this instance can open what the cluster sealed (the engine's key agreement); absent: not asked. */
    private readonly credentials?: () => Promise<ProbeCheck>,
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
    return (await this.report()).failing;
  }

  /** The failing dependencies and the message naming them (`not ready: migrations pending (schema 7, code 8)`). */
  async report(): Promise<ReadinessReport> {
    const failing: ReadinessProblem[] = [];
    const said: string[] = [];
    const fail = (problem: ReadinessProblem, text: string = problem) => {
      failing.push(problem);
      said.push(text);
    };
    if (this.draining) fail('draining');
    const databaseUp = await within(
      this.store.ping().then(() => true as const),
      READINESS_PING_TIMEOUT_MS,
    );
    if (!databaseUp) fail('database');
    if (this.store.listening && !this.store.listening()) fail('listen');
    if (databaseUp) {
      const status = await within(this.store.migrationStatus(), READINESS_PING_TIMEOUT_MS);
      if (status && status.unknown.length === 0 && status.pending.length > 0) {
        fail('migrations', `migrations pending (schema ${status.databaseVersion}, code ${status.codeVersion})`);
      }
      if (status && status.unknown.length > 0 && status.databaseVersion > this.warnedNewer) {
        this.warnedNewer = status.databaseVersion;
        this.logger.warn(
          { schemaVersion: status.databaseVersion, codeVersion: status.codeVersion },
          'the database schema is newer than this release (a newer instance migrated it): still serving, as migrations only add; replace this instance with the newer release',
        );
      }
      const probe = this.credentials ? await within(this.credentials(), READINESS_PING_TIMEOUT_MS) : { ok: true as const };
      if (probe && !probe.ok) fail('credentials', credentialsMessage(probe.keyId));
      if (probe && !probe.ok && this.saidMissing !== (probe.keyId ?? '')) {
        this.saidMissing = probe.keyId ?? '';
        this.logger.error({ key: probe.keyId, reason: probe.reason }, `not ready: ${credentialsMessage(probe.keyId)}`);
      }
      if (probe?.ok) this.saidMissing = undefined;
    }
    return { failing, message: failing.length === 0 ? 'ready' : `not ready: ${said.join(', ')}` };
  }
}

/** The readiness text of an instance that cannot open the probe: which key it lacks (its id, never the key) and what to set. */
function credentialsMessage(keyId: string | undefined): string {
  return `credentials (this instance cannot decrypt the credentials the cluster sealed${keyId ? ` with key ${keyId}` : ''}: set PORTICO_ENCRYPTION_KEY to the key the other instances use, or add that key to PORTICO_ENCRYPTION_PREVIOUS_KEYS)`;
}

/** What `promise` resolves to within `ms`; undefined when it fails or takes longer. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
