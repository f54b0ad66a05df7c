// Renders a run's results into the report block of a Markdown file, without measuring anything again:
//   node bench/report.mjs [results.json] [out.md]   (defaults: bench/results/latest.json, docs/performance.md)
// run.mjs does the same at the end of every run. The text around the block is written by hand and kept.
import { renderReport, writeReport } from './report/document.mjs';
import { readResults } from './results.mjs';

const [input = 'bench/results/latest.json', output = 'docs/performance.md'] = process.argv.slice(2);
writeReport(output, renderReport(readResults(input)));
