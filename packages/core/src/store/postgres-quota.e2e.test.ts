import { afterAll, describe, expect, it } from 'vitest';
import type { PostgresStore } from './postgres.js';
import { POSTGRES_REQUIRED, postgresProblem, storesOnOneSchema } from './postgres.test-support.js';
import { nextIn } from './postgres-quota.js';
import type { QuotaLeaseRequest } from './quota-types.js';

const problem = await postgresProblem();
if (problem !== undefined && POSTGRES_REQUIRED) throw new Error(`PostgreSQL is required and not reachable: ${problem}`);

describe('when the next token frees', () => {
  it('is when enough of the oldest grants have left the horizon for one more token', () => {
    // 10 of 10 used: the first grant (4) leaving frees room
    expect(nextIn([1_000, 2_000, 3_000], [4, 4, 2], 10, 61_000, 5_000)).toBe(57_000);
    // 12 counted against a lowered limit of 10: three must leave, so the first two grants
    expect(nextIn([1_000, 2_000, 3_000], [2, 2, 8], 10, 61_000, 5_000)).toBe(58_000);
    expect(nextIn([1_000], [4], 10, 61_000, 5_000)).toBe(0);
    expect(nextIn([], [], 10, 61_000, 5_000)).toBe(0);
  });
});

describe.skipIf(problem !== undefined)(`shared upstream quota windows on PostgreSQL${problem ? ` (skipped: ${problem})` : ''}`, () => {
  const shared = storesOnOneSchema('quotas_lease');
  afterAll(() => shared.close());

  /** A lease of the 10-a-minute window of `service` (horizon: the minute plus a second), at `atMs` on a fake clock. */
  const minute = (service: string, want: number, atMs?: number): QuotaLeaseRequest => ({
    service,
    workspaceId: 'default',
    windowMs: 60_000,
    limit: 10,
    want,
    horizonMs: 61_000,
    ...(atMs === undefined ? {} : { atMs }),
  });

  it('grants at most the limit within any horizon, across instances leasing at once', async () => {
    const [a, b, c] = (await shared.open(3)) as [PostgresStore, PostgresStore, PostgresStore];
    const leases = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        [a, b, c][i % 3]?.leaseQuota({ ...minute('race', 2), limit: 25, windowMs: 3_600_000, horizonMs: 3_605_000 }),
      ),
    );
    const granted = leases.map((lease) => lease?.granted ?? 0);
    expect(granted.reduce((sum, n) => sum + n, 0)).toBe(25);
    expect(granted.every((n) => n >= 0 && n <= 2)).toBe(true);
    // the refused ones say how long until a token frees: about an hour and 5 s, on the database's own clock
    const refused = leases.filter((lease) => lease?.granted === 0);
    expect(refused.length).toBeGreaterThan(0);
    for (const lease of refused) expect(lease?.nextInMs).toBeGreaterThan(3_600_000);
    // the windows of another service, workspace or length are others
    expect((await a.leaseQuota(minute('race', 2))).granted).toBe(2);
    expect((await a.leaseQuota({ ...minute('race', 2), workspaceId: 'other', windowMs: 3_600_000, horizonMs: 3_605_000 })).granted).toBe(2);
  });

  it('slides: a grant counts for its horizon, then its tokens are free again; given-back tokens are free at once', async () => {
    const [a, b] = (await shared.open(2)) as [PostgresStore, PostgresStore];
    expect(await a.leaseQuota(minute('slide', 4, 1_000))).toEqual({ granted: 4, grantMs: 1_000, nextInMs: 0 });
    expect(await b.leaseQuota(minute('slide', 4, 2_000))).toEqual({ granted: 4, grantMs: 2_000, nextInMs: 0 });
    // 2 left of 10: granted, and the window is full until the first grant leaves the horizon (1 s + 61 s)
    expect(await a.leaseQuota(minute('slide', 4, 3_000))).toEqual({ granted: 2, grantMs: 3_000, nextInMs: 59_000 });
    expect(await b.leaseQuota(minute('slide', 1, 30_000))).toEqual({ granted: 0, grantMs: 30_000, nextInMs: 32_000 });
    // the second grant's holder spent one of four and gives three back: three are free again
    await b.returnQuota('slide', 'default', 60_000, 2_000, 3);
    expect(await a.leaseQuota(minute('slide', 5, 31_000))).toEqual({ granted: 3, grantMs: 31_000, nextInMs: 31_000 });
    // the first grant has left the horizon at 62 s, not a moment before
    expect((await b.leaseQuota(minute('slide', 9, 61_999))).granted).toBe(0);
    expect(await b.leaseQuota(minute('slide', 9, 62_000))).toEqual({ granted: 4, grantMs: 62_000, nextInMs: 1_000 });
    // giving back to a grant that has left the horizon changes nothing (nor more than was granted)
    await a.returnQuota('slide', 'default', 60_000, 1_000, 4);
    await a.returnQuota('slide', 'default', 60_000, 3_000, 5);
    expect((await a.leaseQuota(minute('slide', 9, 62_500))).granted).toBe(2);
  });

  it('keeps each grant apart when two come in the same instant, and leases on the database clock by default', async () => {
    const [a] = (await shared.open(1)) as [PostgresStore];
    const first = await a.leaseQuota(minute('same', 3, 5_000));
    const second = await a.leaseQuota(minute('same', 3, 5_000));
    expect(second.grantMs).toBeGreaterThan(first.grantMs);
    await a.returnQuota('same', 'default', 60_000, second.grantMs, 3);
    expect((await a.leaseQuota(minute('same', 10, 5_001))).granted).toBe(7);

    const before = Date.now();
    const live = await a.leaseQuota(minute('live', 3));
    expect(live.granted).toBe(3);
    expect(live.grantMs).toBeGreaterThanOrEqual(before - 5_000); // the database's clock, near this one
    expect(live.grantMs).toBeLessThanOrEqual(Date.now() + 5_000);
  });
});
