import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Ends every run with one plain line, `Summary: N passed, N failed, N skipped`, that CI reads to tell a run that
 * tested something from one that ran nothing. Above it: skipped tests with the reason given in their name (a group
 * of more than a few under one heading is folded to its count and first lines), then every failed test with its
 * file and the first lines of its error, so that a log cut to its last lines still says what failed.
 */
const SHOWN_PER_GROUP = 5;
const ERROR_LINES = 8;

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let skipped = 0;
    const skippedByGroup = new Map<string, string[]>();
    const failures: TestCase[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failures.push(test);
        else {
          skipped++;
          const group = test.parent.type === 'suite' ? test.parent.fullName : module.moduleId;
          const names = skippedByGroup.get(group) ?? [];
          names.push(test.name);
          skippedByGroup.set(group, names);
        }
      }
    }
    const out: string[] = [];
    if (skippedByGroup.size > 0) {
      out.push('', 'Skipped tests:');
      for (const [group, names] of skippedByGroup) {
        if (names.length <= SHOWN_PER_GROUP) {
          for (const name of names) out.push(`  - ${group} > ${name}`);
          continue;
        }
        out.push(`  - ${group}: ${names.length} skipped, among them`);
        for (const name of names.slice(0, SHOWN_PER_GROUP)) out.push(`      ${name}`);
      }
    }
    if (failures.length > 0) {
      out.push('', 'Failed tests:');
      for (const test of failures) {
        out.push(`  ✗ ${test.fullName}`, `    in ${test.module.relativeModuleId}`);
        for (const error of test.result().errors ?? []) {
          const text = `${error.name ?? 'Error'}: ${error.message ?? ''}`.split('\n').slice(0, ERROR_LINES);
          for (const line of text) out.push(`    ${line}`);
        }
      }
    }
    out.push('', `Summary: ${passed} passed, ${failures.length} failed, ${skipped} skipped`, '');
    process.stdout.write(out.join('\n'));
  }
}
