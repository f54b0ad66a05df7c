import type pg from 'pg';
import type { PoolClient } from 'pg';
import { advisoryLockText } from './postgres-locks.js';
import type { ClusterLink, SandboxUpstream } from './postgres-options.js';
import type { DbRow } from './rows.js';

/**
 * One database session an instance keeps for as long as it runs, to hold cluster-wide advisory locks that outlive any
 * single task (which sandbox instance hosts the upstreams, who is a member), and the table of published sandbox
 * upstreams. A lock held here is released by `unlock`, or by `close` (the session ends), or when the process dies
 * (PostgreSQL ends its session): that is how the others notice an instance has gone.
 */
export class ClusterSession implements ClusterLink {
  private ended = false;
  private closed = false;

  constructor(
    private readonly session: PoolClient,
    private readonly pool: pg.Pool,
    private readonly namespace: string,
  ) {
    // A held session whose server connection drops emits 'error'; unheard, that would end the process.
    session.on('error', () => {
      this.ended = true;
    });
  }

  /** Whether the session (and so every lock it holds) is still there. */
  async alive(): Promise<boolean> {
    if (this.ended) return false;
    try {
      await this.session.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** Takes the exclusive lock `name` if nobody holds it (in either mode); false at once otherwise. */
  async tryLock(name: string): Promise<boolean> {
    const result = await this.session.query<DbRow>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [this.key(name)]);
    return result.rows[0]?.locked === true;
  }

  /** Takes the lock `name` in shared mode, waiting while someone holds it exclusively. */
  async lockShared(name: string): Promise<void> {
    await this.session.query('SELECT pg_advisory_lock_shared(hashtextextended($1, 0))', [this.key(name)]);
  }

  /** Releases the exclusive hold of `name`. */
  async unlock(name: string): Promise<void> {
    await this.session.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [this.key(name)]);
  }

  /** Replaces the published sandbox upstreams with `upstreams`, in one transaction. */
  async publishSandboxUpstreams(host: string, upstreams: Record<string, string>): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('DELETE FROM sandbox_upstreams');
      const at = new Date().toISOString();
      for (const [service, url] of Object.entries(upstreams)) {
        await client.query('INSERT INTO sandbox_upstreams (service, url, host, updated_at) VALUES ($1, $2, $3, $4)', [
          service,
          url,
          host,
          at,
        ]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async sandboxUpstreams(): Promise<SandboxUpstream[]> {
    const result = await this.pool.query<DbRow>('SELECT service, url, host FROM sandbox_upstreams ORDER BY service');
    return result.rows.map((r) => ({ service: String(r.service), url: String(r.url), host: String(r.host) }));
  }

  async clearSandboxUpstreams(): Promise<void> {
    await this.pool.query('DELETE FROM sandbox_upstreams');
  }

  /** Ends the session: every lock it holds is released. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.session.release(true);
  }

  private key(name: string): string {
    return advisoryLockText(this.namespace, 'cluster-session', name);
  }
}
