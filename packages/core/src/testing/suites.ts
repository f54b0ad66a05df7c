// The two test suites every plugin repeats, written once: its operations against recorded exchanges (both doors), and
// its own sandbox started, connected and reset around each test. They import vitest, which a plugin's tests run on;
// nothing outside a test file imports this module.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Plugin } from '../contract/plugin.js';
import { Registry } from '../contract/registry.js';
import { pinSandboxClock } from './clock.js';
import type { FaultSpec } from './emulator.js';
import { createFixtureHarness, type FixtureHarness, type FixtureHarnessOptions, type OperationFixture } from './fixtures.js';
import { type SandboxHarness, startSandboxHarness } from './sandbox.js';

export interface FixtureSuiteOptions extends FixtureHarnessOptions {
  /** The fixtures, in groups: each group is one `describe` block named by its key. */
  groups: Readonly<Record<string, readonly OperationFixture[]>>;
  /**
   * Fixtures of refused input. When given, every operation of the plugin must have one (the coverage check says which
   * do not), and they run as their own group.
   */
  refused?: readonly OperationFixture[];
  /** Operations with no success fixture, each with the reason (an operation the recorder cannot express, say). */
  withoutSuccessFixture?: Readonly<Record<string, string>>;
}

const label = (fixture: OperationFixture) => fixture.name ?? fixture.operation;
const rows = (fixtures: readonly OperationFixture[]) => fixtures.map((f) => [label(f), f] as const);

/**
 * Declares a plugin's fixture suite: every fixture run through the real pipeline over MCP and REST against a loopback
 * recorder; coverage (a success fixture for every operation, no fixture naming an operation the plugin lacks); and its
 * declarations (every operation and parameter documented, every example valid). Call it at the top level of a test file.
 */
export function describeFixtures(plugin: Plugin, options: FixtureSuiteOptions): void {
  const { groups, refused, withoutSuccessFixture = {}, ...harnessOptions } = options;
  const all = [...Object.values(groups).flat(), ...(refused ?? [])];
  const names = plugin.operations.map((o) => o.name);

  describe(`${plugin.service}: operations against recorded exchanges (MCP and REST)`, () => {
    let harness: FixtureHarness;
    beforeAll(async () => {
      harness = await createFixtureHarness(plugin, harnessOptions);
    });
    afterAll(() => harness?.close());

    for (const [title, fixtures] of Object.entries(groups)) {
      describe(title, () => {
        it.each(rows(fixtures))('%s', (_, fixture) => harness.check(fixture));
      });
    }
    if (refused) {
      describe('refused before any upstream call', () => {
        it.each(rows(refused))('%s', (_, fixture) => harness.check(fixture));
      });
    }
  });

  describe(`${plugin.service}: fixture coverage`, () => {
    it('has a success fixture for every operation', () => {
      const covered = new Set(all.filter((f) => 'output' in f.expect).map((f) => f.operation));
      expect(names.filter((name) => !covered.has(name) && !(name in withoutSuccessFixture))).toEqual([]);
    });
    if (refused) {
      it('has a refused-input fixture for every operation', () => {
        const covered = new Set(refused.map((f) => f.operation));
        expect(names.filter((name) => !covered.has(name))).toEqual([]);
      });
    }
    it('names no operation the plugin does not have', () => {
      const known = new Set(names);
      const unknown = [...all.map((f) => f.operation), ...Object.keys(withoutSuccessFixture)].filter((name) => !known.has(name));
      expect(unknown).toEqual([]);
    });
  });

  describe(`${plugin.service}: declarations`, () => {
    const integration = new Registry().register(plugin);
    it.each(plugin.operations.map((o) => [o.name, o] as const))('%s is documented and its example is valid', (name, operation) => {
      expect(operation.summary.trim(), `${name} has a summary`).not.toBe('');
      expect(operation.summary, `${name}'s summary is one line`).not.toMatch(/\n/);
      expect(operation.description.trim(), `${name} has a description`).not.toBe('');
      const properties = (operation.params.properties ?? {}) as Record<string, { description?: string }>;
      for (const [param, schema] of Object.entries(properties)) {
        expect(schema.description, `${name}.${param} has a description`).toBeTruthy();
      }
      expect(operation.example, `${name} has an example (describe_method hands it out)`).toBeDefined();
      expect(integration.operations.get(name)?.validator.problems(operation.example)).toEqual([]);
      expect(operation.check?.(operation.example as never)).toBeUndefined();
    });
  });
}

export interface SandboxSuiteOptions {
  /** Restore the seeded data before each test (default true). */
  resetEachTest?: boolean;
  /**
   * Pins the sandbox clock to this day (YYYY-MM-DD) for the file's tests, for tests that assert fixed dates; without
   * it the sandbox's today is the real date (or `PORTICO_SANDBOX_TODAY`).
   */
  today?: string;
}

/**
 * Starts a plugin's sandbox for the tests of the file (or of the `describe` block) that calls it, connected to a real
 * engine, and restores its seed before each test. The returned object forwards to the harness once it has started.
 */
export function useSandbox(plugin: Plugin, options: SandboxSuiteOptions = {}): SandboxHarness {
  let harness: SandboxHarness | undefined;
  const started = (): SandboxHarness => {
    if (!harness) throw new Error('useSandbox: the sandbox is used before it started (use it inside a test or hook)');
    return harness;
  };
  beforeAll(async () => {
    if (options.today) pinSandboxClock(options.today);
    harness = await startSandboxHarness(plugin);
  });
  afterAll(async () => {
    await harness?.close();
    if (options.today) pinSandboxClock();
  });
  if (options.resetEachTest ?? true) beforeEach(() => started().reset());

  return {
    get sandbox() {
      return started().sandbox;
    },
    get engine() {
      return started().engine;
    },
    call: <T = Record<string, unknown>>(operation: string, params?: Record<string, unknown>) => started().call<T>(operation, params),
    failure: (operation: string, params?: Record<string, unknown>) => started().failure(operation, params),
    control: (path: string, body?: unknown) => started().control(path, body),
    failNext: (fault?: FaultSpec) => started().failNext(fault),
    reset: () => started().reset(),
    close: () => started().close(),
  };
}
