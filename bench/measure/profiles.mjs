// CPU profiles (node --cpu-prof) of the gateway under REST load and under MCP load, summarised over the load window.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeProfile } from '../cpuprofile.mjs';
import { processFile, startChild, stopChild } from '../harness/children.mjs';
import { runLoad } from '../harness/load.mjs';
import { gatewayNodeFlags } from '../workspace.mjs';
import { OPERATIONS, requestFor } from './scenarios.mjs';

/**
 * @param {string} profileDir where the .cpuprofile files go
 * @param {import('./settings.mjs').Settings} settings
 * @param {(line: string) => void} log
 */
export async function profileGateway(profileDir, { connections: connectionCounts, prime, warmup, duration }, log) {
  /** @type {import('../harness/children.mjs').Started<{ url: string }>} */
  const upstream = await startChild(processFile('upstream.mjs'));
  try {
    return {
      rest: await profile('rest', upstream.url),
      mcp: await profile('mcp', upstream.url),
    };
  } finally {
    await stopChild(upstream.child);
  }

  /**
   * @param {'rest' | 'mcp'} kind
   * @param {string} upstreamUrl
   */
  async function profile(kind, upstreamUrl) {
    const name = `gateway-${kind}.cpuprofile`;
    rmSync(join(profileDir, name), { force: true });
    /** @type {import('../harness/children.mjs').Started<import('../processes/gateway.mjs').GatewayReady>} */
    const gateway = await startChild(
      processFile('gateway.mjs'),
      {},
      [...(await gatewayNodeFlags()), '--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', name],
      [upstreamUrl],
    );
    const connections = Math.max(...connectionCounts);
    // Both operations, alternating on every connection.
    const requests = OPERATIONS.map((op) => requestFor(kind, op, gateway));
    if (prime + warmup > 0) await runLoad({ url: gateway.url, requests, connections, duration: prime + warmup });
    const run = await runLoad({ url: gateway.url, requests, connections, duration, watch: { hop: gateway.pid } });
    await stopChild(gateway.child);
    /** @type {import('../cpuprofile.mjs').Profile} */
    const data = JSON.parse(readFileSync(join(profileDir, name), 'utf8'));
    const summary = summarizeProfile(data, { startUs: Number(run.window.startNs / 1000n), endUs: Number(run.window.endNs / 1000n) });
    const result = {
      file: `bench/results/profiles/${name}`,
      connections,
      rps: run.rps,
      requests: run.requests,
      p50: run.p50,
      hopCpuShare: run.cpu.hop?.share ?? Number.NaN,
      busyUsPerRequest: (summary.busyMs * 1000) / run.requests,
      windowed: summary.windowed,
      busyMs: summary.busyMs,
      idleShare: summary.idleShare,
      selfByFunction: summary.selfByFunction.slice(0, 40),
      inclusiveByFunction: summary.inclusiveByFunction.slice(0, 80),
      selfByPackage: summary.selfByPackage.slice(0, 25),
      inclusiveByPackage: summary.inclusiveByPackage.slice(0, 25),
    };
    log(`profile ${kind}: ${run.rps.toFixed(0)} req/s under the profiler, ${result.busyUsPerRequest.toFixed(0)} µs busy CPU per request`);
    return result;
  }
}

/** @typedef {Awaited<ReturnType<typeof profileGateway>>} Profiles */
