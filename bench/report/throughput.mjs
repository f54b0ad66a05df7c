// The load sections of the report: the A/B pairs of the tool-set key and the dashboard, throughput and latency per
// connection count, the run conditions, and the ratios between paths.
import { OPERATION_LABEL, PATH_LABEL, PATHS } from '../measure/scenarios.mjs';
import { int, mb, ms, pct, ratio, table } from './markdown.mjs';

/** @typedef {import('../results.mjs').Results} Results */
/** @typedef {import('./targets.mjs').Derived} Derived */
/** @typedef {import('../measure/scenarios.mjs').PathId} PathId */
/** @typedef {import('../measure/scenarios.mjs').OperationId} OperationId */

/**
 * Each pair's throughput ratio, from the medians and round by round.
 * @param {Results} results
 * @param {Derived} d
 * @returns {string[]}
 */
export function abSection(results, d) {
  if (!d.ops.some((op) => d.find(d.high, op, 'rest-toolset') || d.find(d.high, op, 'rest-nodash'))) return [];
  const rounds = results.throughput.rounds ?? [];
  /**
   * @param {OperationId} op
   * @param {PathId} a
   * @param {PathId} b
   */
  const perRound = (op, a, b) =>
    rounds
      .map((runs) => {
        const x = runs.find((r) => r.connections === d.high && r.op === op && r.target === a);
        const y = runs.find((r) => r.connections === d.high && r.op === op && r.target === b);
        return x && y ? ratio(x.rps / y.rps) : '–';
      })
      .join(', ');
  /** @type {[string, PathId, PathId][]} */
  const pairs = [
    ['REST, key bound to a tool set ÷ full key', 'rest-toolset', 'rest'],
    ['REST, dashboard served ÷ PORTICO_DASHBOARD=off', 'rest', 'rest-nodash'],
    ['MCP tools/call, dashboard served ÷ PORTICO_DASHBOARD=off', 'mcp', 'mcp-nodash'],
  ];
  const rows = [];
  for (const op of d.ops) {
    for (const [what, a, b] of pairs) {
      const x = d.find(d.high, op, a);
      const y = d.find(d.high, op, b);
      if (!x || !y) continue;
      rows.push([
        OPERATION_LABEL[op],
        what,
        ratio(x.rps / y.rps),
        perRound(op, a, b),
        `${int(x.hopUsPerRequest)} / ${int(y.hopUsPerRequest)}`,
      ]);
    }
  }
  return [
    '## Tool sets and the dashboard: A/B throughput in the same run',
    '',
    `Each pair measured in the same rounds at ${d.high} connections (the second gateway is the same build started with ` +
      'PORTICO_DASHBOARD=off; every other round runs the targets in reverse order).',
    '',
    table(['operation', 'pair', 'ratio of the medians', 'per round', 'gateway CPU µs/request'], rows),
    '',
  ];
}

/**
 * @param {Results} results
 * @param {Derived} d
 * @returns {string[]}
 */
export function throughputSection(results, d) {
  const env = results.environment;
  const L = ['## Throughput and latency', ''];
  L.push(
    'Closed-loop load from autocannon in the parent process against children on loopback: a minimal node:http upstream ' +
      '(`bench/processes/upstream.mjs`, fixed JSON for the example plugin), a bare keep-alive node:http reverse proxy (`bench/processes/proxy.mjs`), ' +
      'a node:http server passing through one tuned got instance (`bench/processes/got-hop.mjs`, reference for the floor of a got-based hop) and ' +
      "the gateway (`bench/processes/gateway.mjs`: `startGateway` with core's example plugin, embedded SQLite, default settings). " +
      'Direct, proxy and got requests are the upstream request the gateway itself sends (`GET /api/items?limit=5&status=open&tags=a&tags=b`, ' +
      '`POST /api/items?notify=true` with `{"name":"bench"}`); REST sends `GET /api/v1/example/items?limit=5&status=open&tags=a&tags=b` and ' +
      '`POST /api/v1/example/items` with `{"name":"bench","notify":true}`; MCP sends `tools/call` of `call_example` with the same parameters ' +
      '(stateless, no initialize). Latency percentiles are exact (every response time kept), only 2xx responses counted. ' +
      '"hop CPU" is the utime + stime of the process in the path (/proc), per request and as a share of one core.',
    '',
  );
  for (const c of d.conns) {
    L.push(`### ${c} connection${c === 1 ? '' : 's'}`, '');
    const rows = [];
    for (const op of d.ops) {
      for (const path of PATHS) {
        const x = d.find(c, op, path);
        if (!x) continue;
        rows.push([
          OPERATION_LABEL[op],
          PATH_LABEL[path],
          int(x.rps),
          ms(x.p50),
          ms(x.p99),
          x.hopUsPerRequest === undefined ? '–' : int(x.hopUsPerRequest),
          x.hopCpuShare === undefined ? '–' : pct(x.hopCpuShare),
          int(x.responseBytes),
          x.non2xx + x.errors > 0 ? `${x.non2xx} non-2xx, ${x.errors} errors` : '0',
        ]);
      }
    }
    L.push(
      table(['operation', 'path', 'req/s', 'p50 ms', 'p99 ms', 'hop CPU µs/req', 'hop CPU (of one core)', 'response B', 'failures'], rows),
      '',
    );
  }
  L.push('### Run conditions', '');
  L.push(
    `Machine busy: all ${env.cores} cores together (100% = all busy). Other load: CPU time of processes outside the benchmark during the run (user + system time of all processes minus ours; interrupts excluded), in cores ` +
      `(a scenario with more than 0.3 is repeated, up to ${env.settings.retries ?? 0} times, and the least disturbed attempt kept: see "attempts"). ` +
      'Hop CPU can pass 100% of one core: GC and libuv run on helper threads. For the gateway: event-loop delay ' +
      '(monitorEventLoopDelay, 5 ms resolution), GC pauses (share of wall time, longest) and RSS after the run.',
    '',
  );
  /** @type {PathId[]} */
  const conditionPaths = ['direct', 'proxy', 'got', 'rest', 'mcp'];
  L.push(
    table(
      [
        'connections',
        'operation',
        'path',
        'machine busy',
        'other load (cores)',
        'load generator CPU',
        'upstream CPU',
        'gateway loop delay p99 / max ms',
        'gateway GC time / longest pause',
        'gateway RSS after, MB',
        'attempts',
      ],
      d.conns.flatMap((c) =>
        d.ops.flatMap((op) =>
          conditionPaths.flatMap((path) => {
            const x = d.find(c, op, path);
            if (!x) return [];
            return [
              [
                String(c),
                op,
                PATH_LABEL[path],
                pct(x.machineBusy),
                ms(x.foreignCores, 2),
                pct(x.loadgenCpuShare),
                pct(x.upstreamCpuShare),
                x.loopDelayP99 === undefined ? '–' : `${ms(x.loopDelayP99, 1)} / ${ms(x.loopDelayMax, 1)}`,
                x.gcShare === undefined ? '–' : `${pct(x.gcShare, 1)} / ${ms(x.gcMaxMs, 1)} ms`,
                x.gatewayRss === undefined ? '–' : ms(mb(x.gatewayRss), 1),
                String(x.attempts ?? 1),
              ],
            ];
          }),
        ),
      ),
    ),
    '',
  );
  L.push('### Ratios', '');
  const ratioRows = d.ops.map((op) => {
    const r = d.ratios[op];
    return [
      OPERATION_LABEL[op],
      ratio(r.restVsProxy),
      ratio(r.gotVsProxy),
      ratio(r.koaVsProxy),
      ratio(r.mcpVsRestHigh),
      ratio(r.mcpVsRestLow),
      ms(r.addedP50.proxy),
      ms(r.addedP50.got),
      ms(r.addedP50.koa),
      ms(r.addedP50.rest),
      ms(r.addedP50.mcp),
    ];
  });
  L.push(
    table(
      [
        'operation',
        `REST / proxy req/s (${d.high} c)`,
        `got hop / proxy (${d.high} c)`,
        `Koa + got hop / proxy (${d.high} c)`,
        `MCP / REST req/s (${d.high} c)`,
        `MCP / REST req/s (${d.low} c)`,
        `added p50 ms, proxy (${d.low} c)`,
        `added p50 ms, got hop (${d.low} c)`,
        `added p50 ms, Koa + got hop (${d.low} c)`,
        `added p50 ms, REST (${d.low} c)`,
        `added p50 ms, MCP (${d.low} c)`,
      ],
      ratioRows,
    ),
    '',
  );
  const mem = results.throughput.gatewayMemoryAfterLoad;
  L.push(`Gateway RSS after all load scenarios: ${ms(mb(mem.rss), 1)} MB (peak ${ms(mb(mem.peak), 1)} MB).`, '');
  return L;
}
