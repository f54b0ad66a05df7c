import type { OperationIndex } from '@portico/core';

/**
 * One task of the search evaluation set: what a person at a firm would ask, in their words; the service if the words
 * name one; the operations ("service.method") that answer it, several where several answer it equally well.
 */
export interface SearchTask {
  task: string;
  service?: string;
  expect: string[];
}

export interface SearchScore {
  tasks: number;
  top1: number;
  top3: number;
}

export interface SearchEvaluation {
  overall: SearchScore;
  /** By the service of the first expected operation. */
  byService: Record<string, SearchScore>;
  /** Tasks without an expected operation in the top 3, with what came instead. */
  misses: Array<{ task: string; expect: string[]; got: string[] }>;
}

const share = (count: number, total: number) => (total === 0 ? 0 : count / total);

/**
 * Runs each task's words through search_methods' ranking (no service filter: a service named in the words is one more
 * word) and counts the tasks whose expected operation comes first, and those where it is among the first three.
 */
export function evaluateSearch(index: OperationIndex, tasks: readonly SearchTask[]): SearchEvaluation {
  const overall: SearchScore = { tasks: 0, top1: 0, top3: 0 };
  const byService: Record<string, SearchScore> = {};
  const misses: SearchEvaluation['misses'] = [];
  for (const { task, expect } of tasks) {
    const got = index.search(task, { limit: 3 }).map((hit) => `${hit.service}.${hit.method}`);
    const service = (expect[0] ?? '').split('.')[0] ?? '';
    const score = byService[service] ?? { tasks: 0, top1: 0, top3: 0 };
    byService[service] = score;
    const first = got[0] !== undefined && expect.includes(got[0]);
    const inTop3 = got.some((name) => expect.includes(name));
    for (const s of [overall, score]) {
      s.tasks++;
      if (first) s.top1++;
      if (inTop3) s.top3++;
    }
    if (!inTop3) misses.push({ task, expect, got });
  }
  return { overall, byService, misses };
}

/** "top-1 83.1 % (300/361), top-3 96.4 % (348/361)" */
export function formatScore(score: SearchScore): string {
  const pct = (n: number) => `${(share(n, score.tasks) * 100).toFixed(1)} %`;
  return `top-1 ${pct(score.top1)} (${score.top1}/${score.tasks}), top-3 ${pct(score.top3)} (${score.top3}/${score.tasks})`;
}
