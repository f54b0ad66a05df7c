import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['portico-source'] },
  ssr: { resolve: { conditions: ['portico-source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    // One test file more than the machine has cores: most files spend their time waiting on processes and sockets of
    // their own (gateways, PostgreSQL, Chromium, npm), and vitest's default (cores − 1) runs them one at a time on
    // the 2-core machines of CI. Measured there on the whole suite: 868 s with one file at a time, 494–536 s with three
    // (docs/decisions.md, "Tests in parallel"). `--maxWorkers N` on the command line still decides.
    maxWorkers: availableParallelism() + 1,
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
