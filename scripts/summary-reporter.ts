import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends every run with one plain line, `Summary: N passed, N failed, N skipped`, that CI reads to tell a run that
 * tested something from one that ran nothing. Skipped tests are listed with the reason given in their name.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedNames: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          skippedNames.push(test.fullName);
        }
      }
    }
    if (skippedNames.length > 0) {
      process.stdout.write(`\nSkipped tests:\n${skippedNames.map((n) => `  - ${n}`).join('\n')}\n`);
    }
    process.stdout.write(`\nSummary: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
