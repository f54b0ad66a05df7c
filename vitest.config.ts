import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['portico-source'] },
  ssr: { resolve: { conditions: ['portico-source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
    reporters: ['default', './scripts/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
