// The sandbox behind a real engine: what `portico serve --sandbox` serves, and a check that the plugin and its
// emulator agree (paths, auth, paging, errors).
import { useSandbox } from '@portico/core/testing';
import { describe, expect, it } from 'vitest';
import { acmeTasksPlugin } from '../index.js';

interface Page {
  data: Array<{ id: string; status: string }>;
  page: number;
  total: number;
  has_more: boolean;
}

// Started before the tests of this file, connected to a real engine, its seed restored before each test.
const harness = useSandbox(acmeTasksPlugin);

describe('the Acme Tasks sandbox', () => {
  it('pages through the tasks, newest first', async () => {
    const first = await harness.call<Page>('list_tasks', { per_page: '25' });
    expect(first).toMatchObject({ page: 1, total: 30, has_more: true });
    expect(first.data[0]?.id).toBe('tsk_30');
    const second = await harness.call<Page>('list_tasks', { page: '2', per_page: '25' });
    expect(second.data).toHaveLength(5);
    expect(second.has_more).toBe(false);
  });

  it('filters by status', async () => {
    const done = await harness.call<Page>('list_tasks', { status: 'done', per_page: '100' });
    expect(done.total).toBe(10);
    expect(done.data.every((task) => task.status === 'done')).toBe(true);
  });

  it('creates a task that get_task then returns', async () => {
    const created = await harness.call('create_task', { title: 'Water the plants', due_on: '2026-06-07' });
    expect(created).toMatchObject({ id: 'tsk_31', title: 'Water the plants', status: 'open', due_on: '2026-06-07' });
    expect(await harness.call('get_task', { task_id: 'tsk_31' })).toEqual(created);
  });

  it('answers an unknown task with not_found', async () => {
    const failure = await harness.failure('get_task', { task_id: 'tsk_999' });
    expect(failure.code).toBe('not_found');
    expect(failure.message).toContain('No task tsk_999');
  });

  it('serves an injected failure in its own error format', async () => {
    await harness.failNext({ status: 429, retry_after: 3, message: 'Slow down' });
    const failure = await harness.failure('list_tasks');
    expect(failure.code).toBe('rate_limited');
    expect(failure.retryAfter).toBe(3);
  });
});
