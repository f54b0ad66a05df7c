import { GatewayError } from '@portico/core/plugin';
import { describe, expect, it } from 'vitest';
import { fetchAll, type PageReader } from './find.js';

/** A company with `total` customers, read in pages, each page taking `pageMs` on a fake clock. */
function company(total: number, pageMs: number) {
  let clock = 0;
  const asked: Array<[number, number]> = [];
  const page: PageReader = async (start, max) => {
    asked.push([start, max]);
    clock += pageMs;
    const count = Math.max(0, Math.min(max, total - (start - 1)));
    const Customer = Array.from({ length: count }, (_, i) => ({ Id: String(start + i) }));
    return { body: { QueryResponse: count > 0 ? { Customer, startPosition: start, maxResults: count } : {}, time: 'now' } };
  };
  return { page, asked, now: () => clock };
}

describe('fetchAll within its time budget', () => {
  it('reads every page when they arrive within the budget', async () => {
    const { page, asked, now } = company(2500, 1_000);
    const answer = (await fetchAll('Customer', 1, 10_000, page, { ms: 60_000, now })) as { QueryResponse: { Customer: unknown[] } };
    expect(answer.QueryResponse.Customer).toHaveLength(2500);
    expect(asked).toEqual([
      [1, 1000],
      [1001, 1000],
      [2001, 1000],
    ]);
  });

  it('stops with 504 upstream_timeout, not a partial list, once the budget is spent between pages', async () => {
    const { page, asked, now } = company(9000, 25_000);
    const failure = await fetchAll('Customer', 1, 10_000, page, { ms: 60_000, now }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).toMatchObject({ code: 'upstream_timeout', message: expect.stringContaining('3 pages (3000 Customer records)') });
    expect((failure as Error).message).toContain('fetch_all_budget_seconds');
    expect(asked).toHaveLength(3);
  });
});
