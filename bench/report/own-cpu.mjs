// Portico's own CPU per request: the gateway's CPU time per request minus the Koa + got hop's, for each
// door and operation, from the same run, with the figures of each round (their spread is the measurement's noise).
import { median } from '../harness/stats.mjs';
import { pairFigures } from '../measure/pairs.mjs';
import { OPERATION_LABEL } from '../measure/scenarios.mjs';
import { int, ratio, table } from './markdown.mjs';

/** @typedef {import('../results.mjs').Results} Results */
/** @typedef {import('./targets.mjs').Derived} Derived */
/** @typedef {import('../measure/scenarios.mjs').PathId} PathId */
/** @typedef {import('../measure/scenarios.mjs').OperationId} OperationId */

/** @type {[string, PathId][]} */
const DOORS = [
  ['REST', 'rest'],
  ['MCP tools/call', 'mcp'],
];

/**
 * @param {Results} results
 * @param {Derived} d
 * @returns {string[]}
 */
export function ownCpuSection(results, d) {
  if (!d.ops.some((op) => d.find(d.high, op, 'koa'))) return [];
  const rounds = results.throughput.rounds ?? [];
  /**
   * The CPU µs per request of `path` in each round.
   * @param {OperationId} op
   * @param {PathId} path
   */
  const perRound = (op, path) =>
    rounds.map(
      (runs) => runs.find((r) => r.connections === d.high && r.op === op && r.target === path)?.cpu.hop?.usPerRequest ?? Number.NaN,
    );
  const rows = [];
  for (const op of d.ops) {
    const koa = d.find(d.high, op, 'koa');
    const rest = d.find(d.high, op, 'rest');
    const koaRounds = perRound(op, 'koa');
    const restRounds = perRound(op, 'rest');
    const tuned = d.find(d.high, op, 'koa-tuned');
    const tunedRounds = perRound(op, 'koa-tuned');
    for (const [door, path] of DOORS) {
      const x = d.find(d.high, op, path);
      if (!x || !koa) continue;
      const own = (x.hopUsPerRequest ?? Number.NaN) - (koa.hopUsPerRequest ?? Number.NaN);
      const doorRounds = perRound(op, path);
      rows.push([
        OPERATION_LABEL[op],
        door,
        int(x.hopUsPerRequest),
        int(koa.hopUsPerRequest),
        `**${int(own)}**`,
        doorRounds.map((us, i) => int(us - (koaRounds[i] ?? Number.NaN))).join(', '),
        tuned ? int(tuned.hopUsPerRequest) : '–',
        tuned
          ? `${int((x.hopUsPerRequest ?? Number.NaN) - (tuned.hopUsPerRequest ?? Number.NaN))} (${doorRounds.map((us, i) => int(us - (tunedRounds[i] ?? Number.NaN))).join(', ')})`
          : '–',
        path === 'rest' ? '–' : ratio((x.hopUsPerRequest ?? Number.NaN) / (rest?.hopUsPerRequest ?? Number.NaN)),
        path === 'rest' ? '–' : doorRounds.map((us, i) => ratio(us / (restRounds[i] ?? Number.NaN))).join(', '),
        ratio(x.rps / koa.rps),
      ]);
    }
  }
  return [
    "## Portico's own CPU per request",
    '',
    `The gateway's CPU time per request (utime + stime of its process, all threads, per 2xx answer) minus that of the Koa + got hop ` +
      `for the same operation, both at ${d.high} connections in this run: what Portico adds to the smallest Koa app passing the request through ` +
      'the same tuned got instance (authentication, limits, validation, credentials, the upstream request built from the operation, mapping, ' +
      'audit, metrics, the access log, and for MCP the JSON-RPC envelope). MCP sends the same operations as `tools/call` of `call_example` ' +
      '(list_items reads, create_item creates). The figures per round are each round’s own subtraction and ratio; the table keeps the medians ' +
      'over rounds, so its own CPU is the difference of two medians. The gateway empties got’s cache options (a public option; ' +
      'docs/performance.md, “got’s cache options”), which makes the options object got hands to `http.request` cheap to build on Node 20; ' +
      'the hop the targets use keeps them as got sets them, and the second hop empties them too: against that one, the own CPU is what ' +
      'Portico adds with the same got settings.',
    '',
    table(
      [
        'operation',
        'door',
        'gateway CPU µs/req',
        'Koa + got hop CPU µs/req',
        'own CPU µs/req',
        'own CPU per round',
        "hop with got's cache options as Portico's, CPU µs/req",
        'own CPU against that hop (per round)',
        'CPU ÷ REST',
        'CPU ÷ REST per round',
        'req/s ÷ Koa + got hop',
      ],
      rows,
    ),
    '',
  ];
}

/**
 * The same subtraction at one connection, in one process (processes/sequential.mjs): per round, the gateway's CPU per
 * request minus the hop's of that round; the table keeps the medians over rounds.
 * @param {Results} results
 * @returns {string[]}
 */
export function sequentialSection(results) {
  const seq = results.sequential;
  if (!seq || seq.runs.length === 0) return [];
  const rounds = [...new Set(seq.runs.map((r) => r.round))];
  /**
   * @param {OperationId} op
   * @param {string} target
   */
  const perRound = (op, target) =>
    rounds.map((round) => seq.runs.find((r) => r.op === op && r.target === target && r.round === round)?.usPerRequest ?? Number.NaN);
  const rows = [];
  for (const op of /** @type {OperationId[]} */ (['GET', 'POST'])) {
    const koa = perRound(op, 'koa');
    for (const [door, path] of DOORS) {
      const own = perRound(op, path).map((us, i) => us - (koa[i] ?? Number.NaN));
      rows.push([
        OPERATION_LABEL[op],
        door,
        int(median(perRound(op, path))),
        int(median(koa)),
        `**${int(median(own))}**`,
        own.map(int).join(', '),
      ]);
    }
  }
  return [
    '### At one connection, in one process',
    '',
    `The benchmark upstream, the Koa + got hop and the gateway in one process, and a keep-alive client in it sending one request at a ` +
      `time (${int(seq.requests)} per target and round, after ${int(seq.warmup)} to warm up; each round measures every target in turn): ` +
      "the process's CPU time per request is the client's, the upstream's and the server's, and only the server differs, so the " +
      'difference is what the gateway adds at one connection, without the scheduling noise of three processes on two cores. A request ' +
      'alone in the event loop costs more than one among fifty, so these figures are higher than the ones above; they are the steadier ' +
      'measure of a change. The hop and the gateway share one got here, with its request options built as the gateway builds them.',
    '',
    table(
      ['operation', 'door', 'process CPU µs/req, gateway', 'process CPU µs/req, Koa + got hop', 'own CPU µs/req', 'own CPU per round'],
      rows,
    ),
    '',
  ];
}

/**
 * The paired slices (measure/pairs.mjs) that judge the paired-slice targets: per operation, each figure's median over the
 * pairs, its range and every pair's own value.
 * @param {Results} results
 * @returns {string[]}
 */
export function pairsSection(results) {
  const paired = results.throughput.pairs;
  if (!paired || paired.pairs.length === 0) return [];
  /** @type {[string, (f: ReturnType<typeof pairFigures>) => { median: number, values: number[] }, (x: number) => string][]} */
  const figures = [
    ['REST req/s ÷ Koa + got hop', (f) => f.restVsKoa, ratio],
    ['MCP tools/call req/s ÷ Koa + got hop', (f) => f.mcpVsKoa, ratio],
    ['own CPU per REST request, µs (gateway − hop)', (f) => f.ownRestUs, int],
    ['own CPU per MCP tools/call, µs (gateway − hop)', (f) => f.ownMcpUs, int],
    ['MCP tools/call CPU ÷ REST CPU', (f) => f.mcpCpuVsRest, ratio],
    ['Koa + got hop CPU µs/req', (f) => f.koaUs, int],
    ['gateway CPU µs/req, REST', (f) => f.restUs, int],
    ['gateway CPU µs/req, MCP tools/call', (f) => f.mcpUs, int],
  ];
  const rows = [];
  for (const op of /** @type {OperationId[]} */ (['GET', 'POST'])) {
    const f = pairFigures(paired.pairs, op);
    if (f.count === 0) continue;
    for (const [name, pick, show] of figures) {
      const { median: mid, values } = pick(f);
      rows.push([
        OPERATION_LABEL[op],
        name,
        `**${show(mid)}**`,
        `${show(Math.min(...values))} – ${show(Math.max(...values))}`,
        values.map(show).join(', '),
      ]);
    }
  }
  return [
    '### Paired slices (the paired-slice targets)',
    '',
    `After the rounds, the Koa + got hop, Portico REST and Portico MCP tools/call are measured again at ${paired.connections} connections ` +
      `in slices of ${paired.seconds} s (each after ${paired.warmup} s of load), one slice of each per pair, the order reversed every other ` +
      'pair (hop, REST, MCP; MCP, REST, hop). Each pair gives its own ratios and differences from slices seconds apart; the targets take ' +
      'the median over the pairs. On this 2-core machine the CPU per request of one unchanged process moves by a third between ' +
      'stretches of a few seconds, so one slice per path and round compares draws of that drift rather than the two programs.' +
      (paired.starts === undefined
        ? ''
        : ` The pairs run on processes of their own: a new Koa + got hop and a new gateway every ${paired.pairsPerStart} pair(s) ` +
          `(${paired.starts} starts of each), the hop primed with ${2 * paired.prime} s of the operation's load and the gateway with ` +
          `${paired.prime} s each of REST and MCP before the first slice, so that both sides of a pair have the same history. The ` +
          'req/s ratios of the rounds above are of the processes that served every path.'),
    '',
    table(['operation', 'figure', 'median', 'range', 'per pair'], rows),
    '',
  ];
}
