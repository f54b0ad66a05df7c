// The start-up section of the report: start-up time and RSS per configuration, and the start-up path step by step.
import { int, mb, ms, table } from './markdown.mjs';

/**
 * @param {import('../results.mjs').Results} results
 * @returns {string[]}
 */
export function startupSection(results) {
  const L = ['## Start-up and memory', ''];
  const runs = results.startup[1]?.runs;
  L.push(
    '`node apps/gateway/dist/bin.js serve` as a child process, from spawn to the first 200 of `GET /healthz` (polled every 5 ms), and VmRSS / VmHWM ' +
      'from /proc right then. "First start" uses an empty data directory (creates the database, the encryption key and the first admin key); ' +
      `"restart" starts again on that directory. Median of ${runs && 'first' in runs ? runs.first.length : 0} runs each.`,
    '',
  );
  L.push(
    table(
      ['configuration', 'integrations', 'first start ms', 'restart ms', 'slowest ms', 'RSS MB', 'peak RSS MB'],
      results.startup.map((x) => [
        x.name,
        x.integrations ? x.integrations.join(', ') : '–',
        int(x.first.startupMs),
        x.restart ? int(x.restart.startupMs) : '–',
        x.first.maxStartupMs ? int(Math.max(x.first.maxStartupMs, x.restart?.maxStartupMs ?? 0)) : '–',
        ms(mb(x.first.rss), 1),
        x.first.peak ? ms(mb(x.first.peak), 1) : '–',
      ]),
    ),
    '',
  );
  const steps = results.startupBreakdown?.steps;
  if (steps) {
    L.push(
      'Start-up breakdown: the same start-up path one step at a time in one fresh process (`bench/processes/startup-breakdown.mjs`); a dependency is counted at the first step that loads it.',
      '',
    );
    L.push(
      table(
        ['step', 'ms', 'RSS after, MiB', 'RSS added, MiB'],
        steps.map((x, i) => [x.step, int(x.ms), ms(x.rssMiB, 1), ms(x.rssMiB - (steps[i - 1]?.rssMiB ?? 0), 1)]),
      ),
      '',
    );
    L.push(`Total: ${int(steps.reduce((a, x) => a + x.ms, 0))} ms.`, '');
  }
  return L;
}
