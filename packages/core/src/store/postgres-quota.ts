import type pg from 'pg';
import type { QuotaLease, QuotaLeaseRequest } from './quota-types.js';

/** The grants still inside the horizon of the lease being made (`EXCLUDED.grant_ms[1]` is its clock). */
const KEPT = `FROM unnest(q.grant_ms, q.grant_n) AS g(m, n) WHERE n > 0 AND m > EXCLUDED.grant_ms[1] - $6::double precision`;
const GRANT = `GREATEST(0, LEAST($4::integer, $5::integer - COALESCE((SELECT sum(n) ${KEPT}), 0)))::integer`;

/**
 * The shared upstream quota windows (`upstream_quotas`, migration 11), one row per connection (service, workspace) and
 * window, holding the grants made within the last horizon as two parallel arrays (time on the database's clock, tokens
 * still counted). A lease is one statement: insert the row if it is missing, else drop the grants that have left the
 * horizon and grant what the others leave of the limit, up to `want`. The row lock serialises concurrent leases of
 * one window, so the tokens granted within any horizon never exceed the limit, whatever the number of instances. A
 * grant's time is unique in its row (it names the grant when unspent tokens are given back).
 */
const LEASE = `
  WITH clock AS (SELECT COALESCE($7::double precision, extract(epoch FROM clock_timestamp()) * 1000) AS ms)
  INSERT INTO upstream_quotas AS q (service, workspace_id, window_ms, grant_ms, grant_n, granted)
  SELECT $1, $2, $3, ARRAY[clock.ms], ARRAY[LEAST($4::integer, $5::integer)], LEAST($4::integer, $5::integer)
  FROM clock
  ON CONFLICT (service, workspace_id, window_ms) DO UPDATE SET
    granted = ${GRANT},
    grant_ms = ARRAY(SELECT m ${KEPT} ORDER BY m) || CASE WHEN ${GRANT} > 0
      THEN ARRAY[GREATEST(EXCLUDED.grant_ms[1], q.grant_ms[cardinality(q.grant_ms)] + 0.001)]
      ELSE ARRAY[]::double precision[] END,
    grant_n = ARRAY(SELECT n ${KEPT} ORDER BY m) || CASE WHEN ${GRANT} > 0 THEN ARRAY[${GRANT}] ELSE ARRAY[]::integer[] END
  RETURNING granted, grant_ms, grant_n, (SELECT ms FROM clock) AS now_ms`;

/** Unspent tokens given back: the grant made at `$4` counts `$5` fewer (never below 0). */
const GIVE_BACK = `
  UPDATE upstream_quotas SET grant_n = ARRAY(
    SELECT CASE WHEN m = $4::double precision THEN GREATEST(0, n - $5::integer) ELSE n END
    FROM unnest(grant_ms, grant_n) WITH ORDINALITY AS g(m, n, i) ORDER BY i)
  WHERE service = $1 AND workspace_id = $2 AND window_ms = $3`;

export async function leaseQuota(pool: pg.Pool, request: QuotaLeaseRequest): Promise<QuotaLease> {
  const { service, workspaceId, windowMs, limit, want, horizonMs } = request;
  const args = [service, workspaceId, windowMs, want, limit, horizonMs, request.atMs ?? null];
  const result = await pool.query<{ granted: number; grant_ms: number[]; grant_n: number[]; now_ms: number }>(LEASE, args);
  const row = result.rows[0];
  if (!row) throw new Error('upstream quota lease returned no row');
  const stamps = row.grant_ms.map(Number);
  const tokens = row.grant_n.map(Number);
  const now = Number(row.now_ms);
  const granted = Number(row.granted);
  return { granted, grantMs: granted > 0 ? (stamps.at(-1) as number) : now, nextInMs: nextIn(stamps, tokens, limit, horizonMs, now) };
}

export async function returnQuota(
  pool: pg.Pool,
  service: string,
  workspaceId: string,
  windowMs: number,
  grantMs: number,
  tokens: number,
): Promise<void> {
  await pool.query(GIVE_BACK, [service, workspaceId, windowMs, grantMs, tokens]);
}

/** ms until the grants (oldest first) leave room for one more token within `limit`: as the oldest leave the horizon. */
export function nextIn(stamps: readonly number[], tokens: readonly number[], limit: number, horizonMs: number, now: number): number {
  let over = tokens.reduce((sum, n) => sum + n, 0) - limit + 1;
  for (let i = 0; over > 0 && i < stamps.length; i++) {
    over -= tokens[i] as number;
    if (over <= 0) return Math.max(0, (stamps[i] as number) + horizonMs - now);
  }
  return 0;
}
