import type pg from 'pg';

/**
 * The shared token buckets of the rate limits (`rate_buckets`, migration 3), one row per bucket. A lease is one
 * statement: insert the bucket full if it is missing, else refill it for the time elapsed since its last lease (on
 * the database's clock, which every instance shares, so their clocks need not agree), take up to `want` whole tokens,
 * and return what was granted and what is left. The row lock serialises concurrent leases of one bucket, so the
 * tokens granted never exceed what the bucket held; `granted` is stored in the row only so that RETURNING can say it.
 */
const LEASE = `
  WITH clock AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms)
  INSERT INTO rate_buckets AS b (bucket, tokens, granted, updated_ms)
  SELECT $1, $3::double precision - LEAST($2::double precision, $3::double precision),
         LEAST($2::double precision, $3::double precision), clock.ms
  FROM clock
  ON CONFLICT (bucket) DO UPDATE SET
    granted = LEAST($2::double precision, floor(LEAST($3::double precision,
      b.tokens + GREATEST(0, EXCLUDED.updated_ms - b.updated_ms) * $4::double precision))),
    tokens = LEAST($3::double precision, b.tokens + GREATEST(0, EXCLUDED.updated_ms - b.updated_ms) * $4::double precision)
      - LEAST($2::double precision, floor(LEAST($3::double precision,
        b.tokens + GREATEST(0, EXCLUDED.updated_ms - b.updated_ms) * $4::double precision))),
    updated_ms = GREATEST(b.updated_ms, EXCLUDED.updated_ms)
  RETURNING granted, tokens`;

export async function leaseTokens(
  pool: pg.Pool,
  bucket: string,
  want: number,
  burst: number,
  perMs: number,
): Promise<{ granted: number; left: number }> {
  const result = await pool.query<{ granted: number; tokens: number }>(LEASE, [bucket, want, burst, perMs]);
  const row = result.rows[0];
  if (!row) throw new Error('rate bucket lease returned no row');
  return { granted: Number(row.granted), left: Number(row.tokens) };
}
