import type { ServerResponse } from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IdTable } from '../workers/id-table.js';
import { UnansweredResponses } from './unanswered.js';

// The tables a gateway keeps across requests and changes once per call: after a full collection, taking and dropping
// an entry per call must not make V8 keep the young objects of the calls (docs/performance.md, "a full collection, and
// two rates of promotion" and "the bench on the fix, and per-call tables in workers"). A Map serves as the control: it
// does what the fault did, so the measure is shown to see it.

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** A per-call table: `add` keeps a call's objects, and returns what `remove` needs to drop them. */
interface Churned<H> {
  add(call: object): H;
  remove(handle: H): void;
}

const IN_FLIGHT = 50;

/** `calls` calls, `IN_FLIGHT` at a time, each holding about 3 KB of young objects while it is in the table. */
async function churn<H>(table: Churned<H>, calls: number): Promise<void> {
  const inFlight: (H | undefined)[] = new Array(IN_FLIGHT);
  for (let i = 0; i < calls; i++) {
    const slot = i % IN_FLIGHT;
    const previous = inFlight[slot];
    if (previous !== undefined) table.remove(previous);
    const body = Array.from({ length: 40 }, (_, j) => ({ j, pair: [j, j + 1] }));
    inFlight[slot] = table.add({ body });
    if (i % 1_000 === 0) await new Promise(setImmediate);
  }
  for (const handle of inFlight) if (handle !== undefined) table.remove(handle);
}

/** The churn once, a full collection, then the churn measured: the old generation's growth per young collection. */
async function afterFullCollection<H>(table: Churned<H>): Promise<{ promotedKb: number; fullCollections: number }> {
  await churn(table, 50_000);
  gc();
  const profiler = new v8.GCProfiler();
  profiler.start();
  await churn(table, 200_000);
  const { statistics } = profiler.stop();
  const old = (spaces: v8.HeapSpaceStatistics[]) => spaces.find((s) => s.spaceName === 'old_space')?.spaceUsedSize ?? 0;
  const promoted = statistics
    .filter((s) => s.gcType === 'Scavenge')
    .map((s) => old(s.afterGC.heapSpaceStatistics) - old(s.beforeGC.heapSpaceStatistics))
    .sort((a, b) => a - b);
  return {
    promotedKb: (promoted[promoted.length >> 1] ?? 0) / 1024,
    fullCollections: statistics.filter((s) => s.gcType === 'MarkSweepCompact').length,
  };
}

function unanswered(): Churned<() => void> {
  const list = new UnansweredResponses();
  return { add: (call) => list.add(call as ServerResponse), remove: (remove) => remove() };
}

/** A table keyed by a growing id, as a worker and its primary key their calls. */
function keyedById(set: (id: number, call: object) => void, drop: (id: number) => void): Churned<number> {
  let next = 1;
  return {
    add: (call) => {
      const id = next++;
      set(id, call);
      return id;
    },
    remove: drop,
  };
}

function byId(): Churned<number> {
  const table = new IdTable<object>();
  return keyedById(
    (id, call) => table.set(id, call),
    (id) => void table.take(id),
  );
}

function map(): Churned<number> {
  const table = new Map<number, object>();
  return keyedById(
    (id, call) => table.set(id, call),
    (id) => void table.delete(id),
  );
}

describe('per-call tables after a full collection', () => {
  it('the control, a Map churned per call, keeps its calls alive through young collections', async () => {
    const { promotedKb, fullCollections } = await afterFullCollection(map());
    expect(promotedKb).toBeGreaterThan(1_024);
    expect(fullCollections).toBeGreaterThan(2);
  });

  it.each([
    ['the responses a stop closes (UnansweredResponses)', unanswered],
    ['the calls a worker and its primary wait on (IdTable)', byId],
  ] as const)('%s keep none of them', async (_name, make) => {
    const { promotedKb, fullCollections } = await afterFullCollection<unknown>(make() as Churned<unknown>);
    expect(promotedKb).toBeLessThan(64);
    expect(fullCollections).toBeLessThanOrEqual(1);
  });
});
