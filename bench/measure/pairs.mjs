// Paired slices: the Koa + got hop and the gateway's REST and MCP doors measured in short slices that alternate
// (hop, REST, MCP, then MCP, REST, hop, …), so that every comparison the paired-slice targets make is between slices a few
// seconds apart. On this 2-core machine the speed of one process moves by a third from one stretch of seconds to the
// next; three rounds of one slice per path leave the ratio to the
// luck of three draws, many short pairs measure it.
//
// The pairs run on processes of their own, a new hop and a new gateway every `pairsPerStart` pairs, each primed for
// the same time before its first slice: the two sides of a pair have the same history. The processes of the rounds do
// not: the gateway there has served three paths at two connection counts while the hop served one. In one run its
// pairs came out at a median of 0.70× of the hop (GET and POST), while a gateway started beside it after the rounds
// measured 1.13× and 1.17× of the same hop in the same pairs. Several starts also draw the speed of a new process several times instead of once (18 starts of the
// gateway measured 0.80–1.08× of one long-lived hop).
import { runLoad } from '../harness/load.mjs';
import { median } from '../harness/stats.mjs';
import { OPERATIONS } from './scenarios.mjs';

/** @typedef {import('./scenarios.mjs').OperationId} OperationId */
/** @typedef {'koa' | 'rest' | 'mcp'} PairPath */
/** @typedef {{ rps: number, usPerRequest: number, foreignCores: number, non2xx: number }} Slice */
/** @typedef {{ op: OperationId, pair: number, start: number } & Record<PairPath, Slice>} Pair */

/**
 * Processes started for some pairs: where each path is served, the request it sends, and how to stop them.
 * @typedef {object} PairProcesses
 * @property {Record<PairPath, { url: string, pid: number }>} endpoints
 * @property {(path: PairPath, op: OperationId) => import('autocannon').Request} request
 * @property {() => Promise<void>} stop
 */

/** @type {PairPath[]} */
export const PAIR_PATHS = ['koa', 'rest', 'mcp'];
/** Cores used by other processes above which a scenario is repeated (throughput) or a slice measured once more. */
export const FOREIGN_LIMIT = 0.3;

/**
 * @param {object} options
 * @param {() => Promise<PairProcesses>} options.start a new hop and a new gateway
 * @param {number} options.upstreamPid
 * @param {number} options.connections
 * @param {number} options.pairs pairs per operation
 * @param {number} options.pairsPerStart pairs measured on one start of the processes
 * @param {number} options.seconds load per slice
 * @param {number} options.warmup load before each slice, not measured
 * @param {number} options.prime load on each new process before its first slice, per path it serves, not measured
 * @param {(line: string) => void} options.log
 */
export async function measurePairs({ start, upstreamPid, connections, pairs: count, pairsPerStart, seconds, warmup, prime, log }) {
  /** @type {Pair[]} */
  const pairs = [];
  let starts = 0;
  for (const op of OPERATIONS) {
    /** @type {PairProcesses | undefined} */
    let processes;
    try {
      for (let pair = 0; pair < count; pair++) {
        if (pair % pairsPerStart === 0) {
          await processes?.stop();
          processes = await start();
          starts++;
          if (prime > 0) {
            // the hop's one path for as long as the gateway's two together
            const { endpoints, request } = processes;
            await runLoad({ url: endpoints.koa.url, requests: [request('koa', op)], connections, duration: 2 * prime });
            for (const path of /** @type {PairPath[]} */ (['rest', 'mcp'])) {
              await runLoad({ url: endpoints[path].url, requests: [request(path, op)], connections, duration: prime });
            }
          }
        }
        const { endpoints, request } = /** @type {PairProcesses} */ (processes);
        /** @type {Partial<Record<PairPath, Slice>>} */
        const slices = {};
        for (const path of pair % 2 === 0 ? PAIR_PATHS : [...PAIR_PATHS].reverse()) {
          const { url, pid } = endpoints[path];
          const requests = [request(path, op)];
          /** @type {Slice | undefined} */
          let slice;
          for (let attempt = 0; attempt < 2 && (!slice || slice.foreignCores > FOREIGN_LIMIT); attempt++) {
            if (warmup > 0) await runLoad({ url, requests, connections, duration: warmup });
            const run = await runLoad({ url, requests, connections, duration: seconds, watch: { hop: pid, upstream: upstreamPid } });
            const current = {
              rps: run.rps,
              usPerRequest: run.cpu.hop?.usPerRequest ?? Number.NaN,
              foreignCores: run.foreignCores,
              non2xx: run.non2xx + run.errors,
            };
            if (!slice || current.foreignCores < slice.foreignCores) slice = current;
          }
          slices[path] = slice;
        }
        const complete = /** @type {Record<PairPath, Slice>} */ (slices);
        pairs.push({ op, pair, start: starts, ...complete });
        log(
          `pair ${pair + 1} ${op} (start ${starts}): REST ÷ hop ${(complete.rest.rps / complete.koa.rps).toFixed(2)}×, ` +
            `own CPU ${(complete.rest.usPerRequest - complete.koa.usPerRequest).toFixed(0)} µs, ` +
            `MCP CPU ÷ REST ${(complete.mcp.usPerRequest / complete.rest.usPerRequest).toFixed(2)}×`,
        );
      }
    } finally {
      await processes?.stop();
    }
  }
  return { connections, seconds, warmup, prime, pairsPerStart, starts, pairs };
}

/**
 * The figures the targets take from the pairs of one operation: each pair's own ratio or difference, and their median.
 * @param {Pair[]} pairs
 * @param {OperationId} op
 */
export function pairFigures(pairs, op) {
  const mine = pairs.filter((p) => p.op === op);
  /** @param {(p: Pair) => number} f */
  const each = (f) => {
    const values = mine.map(f);
    return { median: median(values), values };
  };
  return {
    count: mine.length,
    restVsKoa: each((p) => p.rest.rps / p.koa.rps),
    mcpVsKoa: each((p) => p.mcp.rps / p.koa.rps),
    ownRestUs: each((p) => p.rest.usPerRequest - p.koa.usPerRequest),
    ownMcpUs: each((p) => p.mcp.usPerRequest - p.koa.usPerRequest),
    mcpCpuVsRest: each((p) => p.mcp.usPerRequest / p.rest.usPerRequest),
    koaUs: each((p) => p.koa.usPerRequest),
    restUs: each((p) => p.rest.usPerRequest),
    mcpUs: each((p) => p.mcp.usPerRequest),
  };
}
