// The frozen held-out search set (apps/gateway/src/fixtures/search-eval/README.md): it parses, it is big enough to
// measure, every operation it expects is one the gateway serves, and not a byte of it has changed since it was written.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPlugins } from '../apps/gateway/src/index.js';
import { Registry, silentLogger } from '../packages/core/src/index.js';

const FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps/gateway/src/fixtures/search-eval/help-pages.json');
/** Recorded when the set was frozen. A change to the file is a new set in a new file, never a new value here. */
const FROZEN_SHA256 = '6eb87db7e9a124049bce2feed495bfe05650d8c09b90e2a70a8ed8c71cdf99b7';
const SERVICES = ['callrail', 'clio', 'lawmatics', 'notion', 'quickbooks', 'slack'];

interface Task {
  task: string;
  service?: string;
  expect: string[];
}

const bytes = readFileSync(FILE);
const tasks = JSON.parse(bytes.toString('utf8')) as Task[];

describe('held-out search set written from the help pages', () => {
  it('is the file that was frozen', () => {
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(FROZEN_SHA256);
  });

  it('holds at least 300 distinct tasks of the expected shape, spread over the six applications', () => {
    expect(Array.isArray(tasks)).toBe(true);
    expect(tasks.length).toBeGreaterThanOrEqual(300);
    for (const task of tasks) {
      expect(
        Object.keys(task).every((key) => ['task', 'service', 'expect'].includes(key)),
        JSON.stringify(task),
      ).toBe(true);
      expect(typeof task.task === 'string' && task.task.trim().length > 0, JSON.stringify(task)).toBe(true);
      expect(Array.isArray(task.expect) && task.expect.length > 0, JSON.stringify(task)).toBe(true);
      const owners = new Set(task.expect.map((name) => name.split('.')[0]));
      expect(owners.size, task.task).toBe(1);
      if (task.service !== undefined) expect(owners.has(task.service), task.task).toBe(true);
    }
    expect(new Set(tasks.map((task) => task.task.toLowerCase())).size).toBe(tasks.length);
    const perService = new Map<string, number>();
    for (const task of tasks) {
      const service = task.expect[0]!.split('.')[0]!;
      perService.set(service, (perService.get(service) ?? 0) + 1);
    }
    expect([...perService.keys()].sort()).toEqual(SERVICES);
    for (const count of perService.values()) expect(count).toBeGreaterThanOrEqual(30);
  });

  it('expects only operations the gateway serves', async () => {
    const registry = new Registry();
    for (const plugin of await loadPlugins(undefined, silentLogger)) registry.register(plugin);
    const served = new Set(
      registry.list().flatMap((integration) => [...integration.operations.keys()].map((name) => `${integration.service}.${name}`)),
    );
    expect(served.size).toBeGreaterThan(0);
    const unknown = tasks.flatMap((task) => task.expect).filter((name) => !served.has(name));
    expect(unknown).toEqual([]);
  });
});
