import { describe, expect, it } from 'vitest';
import { IdTable } from './id-table.js';

describe('the table of calls by id', () => {
  it('finds a value by its id until it is taken, once', () => {
    const table = new IdTable<string>();
    table.set(1, 'one');
    table.set(2, 'two');
    expect(table.get(1)).toBe('one');
    expect(table.take(1)).toBe('one');
    expect(table.take(1)).toBeUndefined();
    expect(table.get(1)).toBeUndefined();
    expect(table.values()).toEqual(['two']);
    expect(table.size).toBe(1);
  });

  it('holds no key it was not given: names of Object.prototype are not entries', () => {
    const table = new IdTable<() => void>();
    for (const name of ['constructor', 'toString', '__proto__']) expect(table.get(name as unknown as number), name).toBeUndefined();
    expect(table.values()).toEqual([]);
  });

  it('hands back every value in order of id, and nothing after clear', () => {
    const table = new IdTable<number>();
    for (const id of [30, 4, 1_000_000, 7]) table.set(id, id * 10);
    expect(table.values()).toEqual([40, 70, 300, 10_000_000]);
    table.clear();
    expect(table.values()).toEqual([]);
    expect(table.size).toBe(0);
  });

  it('keeps the calls in flight right through a long churn of ids that only grow', () => {
    const table = new IdTable<number>();
    const wrong: number[] = [];
    for (let id = 1; id <= 100_000; id++) {
      table.set(id, id);
      if (id > 50 && table.take(id - 50) !== id - 50) wrong.push(id - 50);
    }
    expect(wrong).toEqual([]);
    expect(table.size).toBe(50);
    expect(table.values()).toEqual(Array.from({ length: 50 }, (_, i) => 99_951 + i));
  });
});
