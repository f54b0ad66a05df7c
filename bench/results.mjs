// bench/results/ (not committed): where a run leaves its figures — latest.json, which the report is rendered from,
// and the CPU profiles — and the shape of latest.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './workspace.mjs';

export const RESULTS_DIR = join(ROOT, 'bench', 'results');
export const PROFILE_DIR = join(RESULTS_DIR, 'profiles');
export const LATEST = join(RESULTS_DIR, 'latest.json');
/** The whole report of the last run; docs/performance.md holds its summary. */
export const REPORT = join(RESULTS_DIR, 'report.md');

/**
 * Everything one run measured. Figures that were not numbers (NaN) come back from JSON as null.
 * @typedef {object} Results
 * @property {ReturnType<typeof import('./measure/environment.mjs').environment>} environment
 * @property {ReturnType<typeof import('./measure/environment.mjs').installedPluginCode>} installedPluginCode
 * @property {Awaited<ReturnType<typeof import('./measure/openapi.mjs').measureOpenApi>>} openapi
 * @property {import('./measure/startup.mjs').StartupConfiguration[]} startup
 * @property {Awaited<ReturnType<typeof import('./measure/startup.mjs').measureStartupBreakdown>>} startupBreakdown
 * @property {Awaited<ReturnType<typeof import('./measure/discovery.mjs').measureMcpDiscovery>>} discovery
 * @property {import('./processes/micro.mjs').MicroRow[]} micro
 * @property {Awaited<ReturnType<typeof import('./measure/throughput.mjs').measureThroughput>>} throughput
 * @property {import('./measure/profiles.mjs').Profiles} [profiles] absent with --no-profile
 * @property {import('./measure/sequential.mjs').Sequential} [sequential] own CPU at one connection, in one process
 * @property {Awaited<ReturnType<typeof import('./measure/workers.mjs').measureWorkers>>} [workers] serve --workers 1 and 2
 * @property {number} elapsedS
 */

/** @param {Results} results */
export function writeResults(results) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(LATEST, `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * @param {string} path
 * @returns {Results}
 */
export function readResults(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}
