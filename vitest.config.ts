import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two lanes (CONTRIBUTING.md, "Two test lanes"). `unit` (`pnpm test`) runs from the TypeScript source through the
// `portico-source` condition, with no build. `e2e` (`pnpm test:e2e`, after a build) holds the files named
// `*.e2e.test.ts` or `*.browser.test.ts`: those that start the built gateway or another process, drive Chromium, or
// need PostgreSQL, HAProxy, podman or Prism. tests/layout.test.ts keeps such a test out of the unit lane.
const E2E = ['**/*.e2e.test.ts', '**/*.browser.test.ts'];
const ROOTS = ['packages/*/src/**', 'apps/*/src/**', 'tests/**'];
// Unit files that measure the process itself (V8's collections), so they need one of their own.
const OWN_PROCESS = ['apps/gateway/src/server/churn.test.ts'];

export default defineConfig({
  resolve: { conditions: ['portico-source'] },
  ssr: { resolve: { conditions: ['portico-source'] } },
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    // One test file more than the machine has cores: e2e files spend most of their time waiting on processes and
    // sockets of their own (gateways, PostgreSQL, Chromium, npm). `--maxWorkers N` on the command line still decides.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 60_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ROOTS.map((root) => `${root}/*.test.ts`),
          exclude: [...E2E, ...OWN_PROCESS, '**/node_modules/**'],
          // Files share worker processes: loading Koa, the MCP SDK, got and the plugins once per worker instead of once
          // per file halves the lane. scripts/vitest-unit-setup.ts puts back what a file may change for the process.
          isolate: false,
          setupFiles: ['./scripts/vitest-unit-setup.ts'],
        },
      },
      { extends: true, test: { name: 'unit-own-process', include: OWN_PROCESS } },
      {
        extends: true,
        test: { name: 'e2e', include: ROOTS.flatMap((root) => E2E.map((pattern) => `${root}/${pattern.slice(3)}`)) },
      },
    ],
  },
});
