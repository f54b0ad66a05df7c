import { describe, expect, it } from 'vitest';
import { fitToBudget, type TruncationNote } from './result-budget.js';

const record = (i: number) => ({ id: i, name: `Record ${i}`, note: 'x'.repeat(300) });
const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('fitToBudget', () => {
  it('leaves an answer within the budget untouched', () => {
    const body = { data: [record(1), record(2)], meta: { next: 'abc' } };
    expect(fitToBudget(body, 10_000)).toEqual({ body });
  });

  it('cuts the array of records, keeps the cursor and every other field, and says what was left out', () => {
    const body = {
      data: Array.from({ length: 200 }, (_, i) => record(i)),
      meta: { paging: { next: 'https://x/?page_token=p2' } },
      total: 200,
    };
    const { body: fitted, note } = fitToBudget(body, 8192, { pageSize: 'limit', fields: 'fields' }) as {
      body: typeof body & { portico_truncated: TruncationNote };
      note: TruncationNote;
    };
    expect(size(fitted)).toBeLessThanOrEqual(8192);
    expect(fitted.meta).toEqual(body.meta);
    expect(fitted.total).toBe(200);
    expect(fitted.data).toEqual(body.data.slice(0, fitted.data.length));
    expect(fitted.data.length).toBeGreaterThan(5);
    expect(note.arrays).toEqual([{ path: 'data', kept: fitted.data.length, total: 200 }]);
    expect(fitted.portico_truncated).toEqual(note);
    expect(note.next).toContain(`asking for ${fitted.data.length} per page (limit)`);
    expect(note.next).toContain('fields');
    expect(note.next).toContain('not after those shown');
    // still JSON of the same shape: parses back to itself
    expect(JSON.parse(JSON.stringify(fitted))).toEqual(fitted);
  });

  it('cuts nested lists (QuickBooks QueryResponse.Invoice) and lists at the top (as result)', () => {
    const qbo = {
      QueryResponse: { Invoice: Array.from({ length: 100 }, (_, i) => record(i)), startPosition: 1, maxResults: 100 },
      time: 't',
    };
    const fitted = fitToBudget(qbo, 4096).body as {
      QueryResponse: { Invoice: unknown[]; maxResults: number };
      portico_truncated: TruncationNote;
    };
    expect(size(fitted)).toBeLessThanOrEqual(4096);
    expect(fitted.QueryResponse.maxResults).toBe(100);
    expect(fitted.portico_truncated.arrays[0]).toMatchObject({ path: 'QueryResponse.Invoice', total: 100 });
    const list = fitToBudget(
      Array.from({ length: 100 }, (_, i) => record(i)),
      4096,
    ).body as { result: unknown[] };
    expect(size(list)).toBeLessThanOrEqual(4096);
    expect(list.result.length).toBeGreaterThan(0);
  });

  it('cuts one long text when there is no list to cut, and says where', () => {
    const page = { id: 'p1', content: 'y'.repeat(50_000) };
    const fitted = fitToBudget(page, 4096).body as { id: string; content: string; portico_truncated: TruncationNote };
    expect(size(fitted)).toBeLessThanOrEqual(4096);
    expect(fitted.id).toBe('p1');
    expect(fitted.content).toMatch(/characters left out\]$/);
    expect(fitted.portico_truncated.strings).toEqual(['content']);
  });

  it('answers with the note alone when nothing can be shortened', () => {
    const wide = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`field_${i}`, i]));
    const fitted = fitToBudget(wide, 4096).body as { portico_truncated: TruncationNote };
    expect(Object.keys(fitted)).toEqual(['portico_truncated']);
    expect(fitted.portico_truncated.next).toContain('too large');
  });
});
