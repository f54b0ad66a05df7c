// Renders a run's results again, without measuring anything: the summary into the report block of a Markdown file and
// the whole report into bench/results/report.md.
//   node bench/report.mjs [results.json] [out.md]   (defaults: bench/results/latest.json, docs/performance.md)
// run.mjs does the same at the end of every run. The text around the block is written by hand and kept.
import { writeFileSync } from 'node:fs';
import { renderReport, renderSummary, writeReport } from './report/document.mjs';
import { REPORT, readResults } from './results.mjs';

const [input = 'bench/results/latest.json', output = 'docs/performance.md'] = process.argv.slice(2);
const results = readResults(input);
writeReport(output, renderSummary(results));
writeFileSync(REPORT, `# Bench report\n\n${renderReport(results)}`);
