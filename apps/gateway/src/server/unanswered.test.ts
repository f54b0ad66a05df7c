import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { UnansweredResponses } from './unanswered.js';

/** Stand-ins: the list only keeps and hands back the objects it is given. */
const responses = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i }) as unknown as ServerResponse);

describe('the responses not yet closed', () => {
  it('hands back every response added and not removed, whatever the order of removal', () => {
    const list = new UnansweredResponses();
    const [a, b, c, d] = responses(4) as [ServerResponse, ServerResponse, ServerResponse, ServerResponse];
    const removeA = list.add(a);
    const removeB = list.add(b);
    const removeC = list.add(c);
    list.add(d);
    removeB(); // from the middle
    expect(new Set(list)).toEqual(new Set([a, c, d]));
    removeA(); // the oldest
    list.add(b);
    removeC();
    expect(new Set(list)).toEqual(new Set([b, d]));
    expect([...list]).toHaveLength(2);
  });

  it('removes a response once: a second call changes nothing', () => {
    const list = new UnansweredResponses();
    const [a, b] = responses(2) as [ServerResponse, ServerResponse];
    const removeA = list.add(a);
    list.add(b);
    removeA();
    removeA();
    expect([...list]).toEqual([b]);
  });

  it('is empty after clear, and the removers handed out before do nothing', () => {
    const list = new UnansweredResponses();
    const [a, b, c] = responses(3) as [ServerResponse, ServerResponse, ServerResponse];
    const removeA = list.add(a);
    list.add(b);
    list.clear();
    expect([...list]).toEqual([]);
    removeA();
    list.add(c);
    expect([...list]).toEqual([c]);
  });

  it('keeps a thousand responses in flight through a churn of adds and removals', () => {
    const list = new UnansweredResponses();
    const all = responses(5_000);
    const removers: (() => void)[] = [];
    for (const [i, response] of all.entries()) {
      removers.push(list.add(response));
      if (i >= 1_000) removers[i - 1_000]?.();
    }
    expect([...list]).toHaveLength(1_000);
    expect(new Set(list)).toEqual(new Set(all.slice(4_000)));
  });
});
