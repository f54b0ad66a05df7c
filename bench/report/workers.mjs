// The report's section on `serve --workers N` (bench/measure/workers.mjs) and its target: with two workers, throughput
// at the same CPU within 10 % of twice one worker's — requests per CPU-second of the gateway processes (primary and
// workers) at least 0.90 × one process's, since the load generator shares this machine and no run gets the same cores.
// With paired slices (bench/measure/workers.mjs), the target takes the median of the pairs, else the rounds' medians.
import { median } from '../harness/stats.mjs';
import { int, ms, pct, ratio, table } from './markdown.mjs';

/** @typedef {import('../results.mjs').Results} Results */
/** @typedef {import('../measure/workers.mjs').WorkersRun} WorkersRun */

/** CPU-normalised throughput of two workers ÷ one worker's: at least this. */
export const WORKERS_EFFICIENCY = 0.9;

/** @param {Results} results */
function figures(results) {
  const runs = results.workers?.runs ?? [];
  const one = runs.find((r) => r.workers === 1);
  const two = runs.find((r) => r.workers === 2 && !r.sharedLimit);
  const shared = runs.find((r) => r.workers === 2 && r.sharedLimit);
  const pairs = results.workers?.pairs ?? [];
  const roundsEfficiency = one && two ? two.rpsPerCpuSecond / one.rpsPerCpuSecond : Number.NaN;
  return {
    runs,
    one,
    two,
    shared,
    pairs,
    roundsEfficiency,
    efficiency: pairs.length > 0 ? median(pairs.map((p) => p.efficiency)) : roundsEfficiency,
    ipcUs: two && shared ? shared.gatewayUsPerRequest - two.gatewayUsPerRequest : Number.NaN,
  };
}

/**
 * The target row (for the report's targets table); none when the run measured no workers.
 * @param {Results} results
 * @returns {import('./targets.mjs').Target[]}
 */
export function workersTargets(results) {
  const { one, two, pairs, efficiency } = figures(results);
  if (!one || !two) return [];
  return [
    {
      name:
        `2 workers within ${pct(1 - WORKERS_EFFICIENCY)} of twice one worker's throughput, CPU-normalised (REST GET, ${two.connections} connections: ` +
        `req per CPU-second of primary + workers ÷ one process's${pairs.length > 0 ? `, median of ${pairs.length} pair${pairs.length === 1 ? '' : 's'} of slices` : ''})`,
      measured: efficiency,
      show: ratio(efficiency),
      limit: `≥ ${ratio(WORKERS_EFFICIENCY)}`,
      pass: efficiency >= WORKERS_EFFICIENCY,
      margin: Number.isFinite(efficiency)
        ? efficiency >= WORKERS_EFFICIENCY
          ? `${pct(efficiency / WORKERS_EFFICIENCY - 1)} above the target`
          : `missed by ${(WORKERS_EFFICIENCY - efficiency).toFixed(2)}`
        : '–',
    },
  ];
}

/**
 * @param {Results} results
 * @returns {string[]}
 */
export function workersSection(results) {
  const { runs, one, two, shared, pairs, roundsEfficiency, efficiency, ipcUs } = figures(results);
  if (runs.length === 0) return [];
  const L = ['## Workers (`serve --workers N`)', ''];
  L.push(
    'The built CLI, `portico serve --workers N`, REST GET `list_items` at the highest connection count, one configuration ' +
      'after the other in the same run. CPU is the user + system time of every gateway process (the primary and its ' +
      'workers, from `/proc`) over the measured run; the load generator and the upstream share the same cores, so the ' +
      'comparison is per CPU-second, not per wall-clock second. "Declared limit" gives the example integration ' +
      '`PORTICO_EXAMPLE_UPSTREAM_LIMITS=concurrency=10000`: every call then takes its slot from the primary over IPC ' +
      '(acquire, release), the cost the other run does not pay.',
    '',
  );
  L.push(
    table(
      [
        'configuration',
        'processes',
        'req/s',
        'p50 ms',
        'p99 ms',
        'gateway cores',
        'CPU µs / request',
        'req per CPU-second',
        'user + system µs / request',
        'preempted / request',
        'machine idle',
        'non-2xx / errors',
      ],
      runs.map((r) => [
        r.id,
        String(r.processes),
        int(r.rps),
        ms(r.p50),
        ms(r.p99),
        ms(r.gatewayCores),
        int(r.gatewayUsPerRequest),
        int(r.rpsPerCpuSecond),
        `${int(r.userUs)} + ${int(r.systemUs)}`,
        ms(r.preemptions),
        pct(r.machineIdle),
        `${r.non2xx} / ${r.errors}`,
      ]),
    ),
    '',
  );
  const ipc = results.workers?.ipc;
  if (ipc) {
    L.push(
      `One slot borrowed and given back over IPC, measured alone (${int(ipc.count)} in a row, a forked worker and this process as ` +
        `the primary): ${ms(ipc.roundTripUs, 1)} µs round trip; CPU ${ms(ipc.workerCpuUs, 1)} µs in the worker and ` +
        `${ms(ipc.primaryCpuUs, 1)} µs in the primary per call. Only calls of integrations with declared limits pay it.`,
      '',
    );
  }
  if (one && two) {
    L.push(
      `Two workers: ${ratio(two.rps / one.rps)} one process's requests a second on ${ratio(two.gatewayCores / one.gatewayCores)} its CPU; ` +
        `per CPU-second ${ratio(roundsEfficiency)}` +
        (pairs.length > 0 ? '' : ` (target ≥ ${ratio(WORKERS_EFFICIENCY)})`) +
        '.' +
        (shared
          ? ` With a declared limit (a slot over IPC per call) the gateway processes used ${int(ipcUs)} µs more CPU per call ` +
            'than without, in this run (under load, so noisier than the round trip measured alone above).'
          : ''),
      '',
    );
  }
  if (pairs.length > 0) {
    const values = pairs.map((p) => p.efficiency);
    // runs before 2026-11-28 measured no two-process side
    const withSplit = pairs.every((p) => p.split !== undefined && p.againstSplit !== undefined && p.sides?.split);
    L.push(
      `**Paired slices (the target).** After the rounds, \`serve --workers 1\` and \`serve --workers 2\` started side by side, ` +
        `each warmed as in the rounds, then measured in ${pairs.length} pair${pairs.length === 1 ? '' : 's'} of ${results.workers?.pairSeconds ?? '?'}-s slices ` +
        (withSplit
          ? '(each after the warm-up of a scenario; with a third slice of two processes, below), the order rotated from one pair to the next: '
          : '(each after the warm-up of a scenario), the order reversed every other pair: ') +
        'two workers ÷ one per CPU-second, ' +
        `median **${ratio(efficiency)}** (range ${ratio(Math.min(...values))} – ${ratio(Math.max(...values))}; per pair ` +
        `${values.map((v) => ratio(v)).join(', ')}; target ≥ ${ratio(WORKERS_EFFICIENCY)}). The rounds measure one ` +
        "configuration after the other, minutes apart; a pair's slices are seconds apart." +
        (pairs.some((p) => p.non2xx > 0) ? ` Non-2xx or errors in the pairs: ${pairs.reduce((a, p) => a + p.non2xx, 0)}.` : ''),
      '',
    );
    if (withSplit) {
      const against = pairs.map((p) => /** @type {number} */ (p.againstSplit));
      const machine = pairs.map((p) => /** @type {number} */ (p.split) / p.one);
      L.push(
        '**Against two processes.** Each set of slices also measured two separate `serve --workers 1`, given half the ' +
          'connections each by the same load generator: what twice one worker does on this machine, without `node:cluster` ' +
          `and without any coordination. Two workers ÷ two processes per CPU-second: median **${ratio(median(against))}** ` +
          `(per set ${against.map((v) => ratio(v)).join(', ')}); two processes ÷ one process: median ${ratio(median(machine))} ` +
          `(per set ${machine.map((v) => ratio(v)).join(', ')}). The second figure is what a second busy process costs on this ` +
          "machine whatever runs in it; the first is what Portico's workers cost on top of that.",
        '',
      );
    }
    const sides = pairs.flatMap((p) => (p.sides ? [p.sides] : []));
    if (sides.length > 0) {
      /** @param {'one' | 'two' | 'split'} side @param {(s: import('../measure/workers.mjs').Spent) => number} f */
      const mid = (side, f) => median(sides.map((s) => f(/** @type {import('../measure/workers.mjs').Spent} */ (s[side]))));
      /** @param {'one' | 'two' | 'split'} side */
      const describe = (side) =>
        `${int(mid(side, (s) => s.userUs))} µs user + ${int(mid(side, (s) => s.systemUs))} µs system per request, ` +
        `preempted ${ms(mid(side, (s) => s.preemptions))} times per request, the machine ${pct(mid(side, (s) => s.machineIdle))} idle`;
      L.push(
        `In the pairs (medians): one process ${describe('one')}; two workers ${describe('two')}` +
          (withSplit ? `; two processes ${describe('split')}` : '') +
          '. Preemptions are the ' +
          "gateway threads' involuntary context switches: with no idle core left for the load generator and the upstream, " +
          'the scheduler cuts the workers off in the middle of their work, and the work after a cut may find its caches cooled by what ran meanwhile.',
        '',
      );
    }
  }
  return L;
}
