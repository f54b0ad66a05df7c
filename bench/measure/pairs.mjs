// Paired slices: the Koa + got hop and the gateway's REST and MCP doors measured in short slices that alternate
// (hop, REST, MCP, then MCP, REST, hop, …), so that every comparison the issue-31 targets make is between slices a few
// seconds apart. On this 2-core machine the speed of one process moves by a third from one stretch of seconds to the
// next (docs/performance.md, "Issue 31: paired slices"); three rounds of one slice per path leave the ratio to the
// luck of three draws, many short pairs measure it.
import { runLoad } from '../harness/load.mjs';
import { median } from '../harness/stats.mjs';
import { OPERATIONS } from './scenarios.mjs';

/** @typedef {import('./scenarios.mjs').OperationId} OperationId */
/** @typedef {'koa' | 'rest' | 'mcp'} PairPath */
/** @typedef {{ rps: number, usPerRequest: number, foreignCores: number, non2xx: number }} Slice */
/** @typedef {{ op: OperationId, pair: number } & Record<PairPath, Slice>} Pair */

/** @type {PairPath[]} */
export const PAIR_PATHS = ['koa', 'rest', 'mcp'];
/** Cores used by other processes above which a scenario is repeated (throughput) or a slice measured once more. */
export const FOREIGN_LIMIT = 0.3;

/**
 * @param {object} options
 * @param {Record<PairPath, { url: string, pid: number }>} options.endpoints
 * @param {(path: PairPath, op: OperationId) => import('autocannon').Request} options.request
 * @param {number} options.upstreamPid
 * @param {number} options.connections
 * @param {number} options.pairs pairs per operation
 * @param {number} options.seconds load per slice
 * @param {number} options.warmup load before each slice, not measured
 * @param {(line: string) => void} options.log
 */
export async function measurePairs({ endpoints, request, upstreamPid, connections, pairs: count, seconds, warmup, log }) {
  /** @type {Pair[]} */
  const pairs = [];
  for (const op of OPERATIONS) {
    for (let pair = 0; pair < count; pair++) {
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
      pairs.push({ op, pair, ...complete });
      log(
        `pair ${pair + 1} ${op}: REST ÷ hop ${(complete.rest.rps / complete.koa.rps).toFixed(2)}×, ` +
          `own CPU ${(complete.rest.usPerRequest - complete.koa.usPerRequest).toFixed(0)} µs, ` +
          `MCP CPU ÷ REST ${(complete.mcp.usPerRequest / complete.rest.usPerRequest).toFixed(2)}×`,
      );
    }
  }
  return { connections, seconds, warmup, pairs };
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
