// Every operation, through the real pipeline, against a loopback recorder: each fixture says what the upstream must
// receive, what it answers, and what the caller gets. The runner runs each fixture twice, over MCP and over REST.
import { createFixtureHarness, type FixtureHarness, type OperationFixture } from '@portico/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acmeTasksPlugin } from './index.js';

const TASK = { id: 'tsk_7', title: 'Water the plants', status: 'open', due_on: '2026-06-07', created_at: '2026-05-07T09:00:00Z' };

const fixtures: OperationFixture[] = [
  {
    name: 'list_tasks without params sends none (the upstream applies its own defaults)',
    operation: 'list_tasks',
    params: {},
    exchanges: [
      {
        request: { method: 'GET', path: '/v1/tasks' },
        response: { body: { data: [TASK], page: 1, per_page: 25, total: 1, has_more: false } },
      },
    ],
    expect: { output: { data: [TASK], page: 1, per_page: 25, total: 1, has_more: false } },
  },
  {
    name: 'list_tasks passes page, per_page and status (numbers are accepted for the string page)',
    operation: 'list_tasks',
    params: { page: 2, per_page: '10', status: 'open' },
    exchanges: [
      {
        request: { method: 'GET', path: '/v1/tasks', query: { page: '2', per_page: '10', status: 'open' } },
        response: { body: { data: [], page: 2, per_page: 10, total: 1, has_more: false } },
      },
    ],
    expect: { output: { data: [], page: 2, per_page: 10, total: 1, has_more: false } },
  },
  {
    name: 'get_task unwraps data',
    operation: 'get_task',
    params: { task_id: 'tsk_7' },
    exchanges: [{ request: { method: 'GET', path: '/v1/tasks/tsk_7' }, response: { body: { data: TASK } } }],
    expect: { output: TASK },
  },
  {
    name: 'create_task sends the fields inside task',
    operation: 'create_task',
    params: { title: 'Water the plants', due_on: '2026-06-07' },
    exchanges: [
      {
        request: { method: 'POST', path: '/v1/tasks', body: { task: { title: 'Water the plants', due_on: '2026-06-07' } } },
        response: { status: 201, body: { data: TASK } },
      },
    ],
    expect: { output: TASK },
  },
  {
    name: 'an upstream 404 is not_found, with the upstream code and message',
    operation: 'get_task',
    params: { task_id: 'tsk_404' },
    exchanges: [
      {
        request: { method: 'GET', path: '/v1/tasks/tsk_404' },
        response: { status: 404, body: { error: { code: 'not_found', message: 'No task tsk_404' } } },
      },
    ],
    expect: { error: { code: 'not_found', message: 'not_found: No task tsk_404' } },
  },
  {
    name: 'an upstream 429 is rate_limited with its Retry-After',
    operation: 'list_tasks',
    params: {},
    exchanges: [
      {
        request: { method: 'GET', path: '/v1/tasks' },
        response: { status: 429, headers: { 'retry-after': '7' }, body: { error: { code: 'rate_limited', message: 'Slow down' } } },
      },
    ],
    expect: { error: { code: 'rate_limited', retryAfter: 7 } },
  },
  {
    name: 'a per_page above 100 is refused before any upstream call',
    operation: 'list_tasks',
    params: { per_page: '500' },
    exchanges: [],
    expect: { error: { code: 'bad_request' } },
  },
  {
    name: 'a date that does not exist is refused before any upstream call',
    operation: 'create_task',
    params: { title: 'x', due_on: '2026-02-30' },
    exchanges: [],
    expect: { error: { code: 'bad_request' } },
  },
];

describe('Acme Tasks operations', () => {
  let harness: FixtureHarness;
  beforeAll(async () => {
    harness = await createFixtureHarness(acmeTasksPlugin, { authHeaders: { authorization: 'Bearer fixture-token' } });
  });
  afterAll(() => harness.close());

  it.each(fixtures.map((f) => [f.name ?? f.operation, f] as const))('%s', (_, fixture) => harness.check(fixture));

  it('has a success fixture for every operation', () => {
    const covered = new Set(fixtures.filter((f) => 'output' in f.expect).map((f) => f.operation));
    expect(acmeTasksPlugin.operations.map((o) => o.name).filter((name) => !covered.has(name))).toEqual([]);
  });
});
