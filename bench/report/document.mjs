// The report as Markdown, and where it goes: the summary (renderSummary) between two marker lines of a document whose
// other text is written by hand (docs/performance.md), which is never touched; the whole report (renderReport) to a
// file of its own. Every figure in the report comes from the results; the only constants are the targets.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { buildingBlocksSection, profilesSection } from './costs.mjs';
import { discoverySection, openApiSection } from './discovery.mjs';
import { int, pct, table } from './markdown.mjs';
import { ownCpuSection, pairsSection, sequentialSection } from './own-cpu.mjs';
import { startupSection } from './startup.mjs';
import { derive } from './targets.mjs';
import { abSection, throughputSection } from './throughput.mjs';
import { workersSection, workersTargets } from './workers.mjs';

/** @typedef {import('../results.mjs').Results} Results */

const BEGIN = '<!-- BEGIN bench report: written by `pnpm bench` (bench/report.mjs) from one run; replaced on every run -->';
const END = '<!-- END bench report -->';

/**
 * @param {Results} results
 * @returns {string} the block, markers included
 */
export function renderReport(results) {
  const env = results.environment;
  const d = derive(results);
  const L = [BEGIN, '', '## The last run', ''];
  L.push(
    `Measured ${env.date.slice(0, 16).replace('T', ' ')} UTC with \`${env.command}\`${env.script ? ` (\`${env.script}\`)` : ''}. ` +
      'All ratios compare figures from this one run on this one machine; absolute numbers move with the machine and its noise.',
    '',
  );
  if (env.settings.mode === 'smoke')
    L.push('**A smoke run (`--smoke`): it shows that the bench runs end to end; its figures mean nothing.**', '');
  L.push('## Machine and versions', '');
  L.push(
    table(
      ['', ''],
      [
        ['CPU', `${env.cpu}, ${env.cores} cores`],
        ['Memory', `${env.memoryGiB.toFixed(1)} GiB`],
        ['OS', env.os],
        ['Node.js', env.node],
        ['pnpm', env.pnpm ?? '(not run through pnpm)'],
        ['Commit', `${env.commit ?? 'unknown'}${env.dirty ? ' (with uncommitted changes)' : ''}`],
        ...Object.entries(env.packages).map(([name, version]) => [`\`${name}\``, version ?? '–']),
        ['Plugins installed', results.openapi.installed.map((p) => `${p.service} ${p.version}`).join(', ')],
        [
          'Settings',
          `${env.settings.duration} s per scenario after ${env.settings.warmup} s warm-up (every process primed with ${env.settings.prime} s of load first), ` +
            `${env.settings.rounds} round(s) (median), connections ${env.settings.connections.join(' and ')}, gateway log level \`${env.settings.logLevel}\``,
        ],
        [
          'Machine busy before the run',
          `${pct(env.busyBeforeRun)} (other processes; the benchmark waits for < 25%, within a budget of --wait-quiet seconds)`,
        ],
        ['Run time', `${int(results.elapsedS)} s`],
      ],
    ),
    '',
  );
  L.push('## Targets', '');
  L.push(
    table(
      ['target', 'measured', 'limit', 'result', 'margin'],
      [...d.targets, ...workersTargets(results)].map((t) => [
        t.name,
        t.show,
        t.limit,
        t.pass ? (t.partial ? 'pass (partial: fewer plugins)' : 'pass') : '**miss**',
        t.margin,
      ]),
    ),
    '',
  );
  L.push(
    ...ownCpuSection(results, d),
    ...pairsSection(results),
    ...sequentialSection(results),
    ...abSection(results, d),
    ...throughputSection(results, d),
    ...workersSection(results),
    ...startupSection(results),
    ...discoverySection(results),
    ...openApiSection(results),
    ...buildingBlocksSection(results),
    ...profilesSection(results),
    END,
    '',
  );
  return L.join('\n').replace(/\n{3,}/g, '\n\n');
}

/**
 * The block for the hand-written document: when and where the run was made, and the targets. The full report
 * (renderReport) goes to bench/results/report.md beside the results.
 * @param {Results} results
 * @returns {string} the block, markers included
 */
export function renderSummary(results) {
  const env = results.environment;
  const d = derive(results);
  const L = [BEGIN, '', '## The last run', ''];
  L.push(
    `Measured ${env.date.slice(0, 16).replace('T', ' ')} UTC with \`${env.command}\` on ${env.cpu} (${env.cores} cores), ` +
      `Node.js ${env.node}, commit ${env.commit ?? 'unknown'}${env.dirty ? ' (with uncommitted changes)' : ''}; ` +
      `${env.settings.rounds} round(s) of ${env.settings.duration} s per scenario, the machine ${pct(env.busyBeforeRun)} busy before the run. ` +
      'Every ratio compares figures of this one run.',
    '',
  );
  if (env.settings.mode === 'smoke')
    L.push('**A smoke run (`--smoke`): it shows that the bench runs end to end; its figures mean nothing.**', '');
  L.push(
    table(
      ['target', 'measured', 'limit', 'result'],
      [...d.targets, ...workersTargets(results)].map((t) => [
        t.name,
        t.show,
        t.limit,
        t.pass ? (t.partial ? 'pass (partial: fewer plugins)' : 'pass') : '**miss**',
      ]),
    ),
    '',
    'The whole report of the run (throughput and latency, workers, start-up, MCP discovery, per-request building ' +
      'blocks, CPU profiles) is `bench/results/report.md`, beside `bench/results/latest.json`.',
    '',
    END,
    '',
  );
  return L.join('\n').replace(/\n{3,}/g, '\n\n');
}

/**
 * The lines of `text` before the report block and after it, or undefined when it holds no block.
 * @param {string} text
 */
function around(text) {
  const lines = text.split('\n');
  const begin = lines.findIndex((line) => line.startsWith('<!-- BEGIN bench report'));
  const end = lines.findIndex((line, i) => i > begin && line.startsWith(END));
  if (begin < 0 || end < 0) return undefined;
  return { before: lines.slice(0, begin), after: lines.slice(end + 1) };
}

/**
 * Throws unless the report can go to `path`: a new file, or one with a report block. Checked before a run, so that
 * a run never ends unable to write its report.
 * @param {string} path
 */
export function checkReportTarget(path) {
  if (existsSync(path) && !around(readFileSync(path, 'utf8'))) {
    throw new Error(
      `${path} holds no bench report block, and its text is not the bench's to replace: put the two lines\n` +
        `${BEGIN}\n${END}\nwhere the report belongs, or choose another file with --out`,
    );
  }
}

/**
 * Replaces the report block of `path` with `report` (from renderReport), keeping every line around it; a new file
 * gets a title and the block.
 * @param {string} path
 * @param {string} report
 */
export function writeReport(path, report) {
  checkReportTarget(path);
  const parts = existsSync(path) ? around(readFileSync(path, 'utf8')) : undefined;
  const block = report.replace(/\n$/, '').split('\n');
  const lines = parts ? [...parts.before, ...block, ...parts.after] : ['# Bench report', '', ...block, ''];
  writeFileSync(path, lines.join('\n'));
}
