// Portico benchmark suite (`pnpm bench`: builds, then runs this file). Everything runs on loopback, in bounded time.
//
//   node bench/run.mjs [--smoke | --quick] [--duration S] [--warmup S] [--prime S] [--rounds N] [--connections 1,50]
//                      [--retries N] [--no-profile] [--log-level info] [--wait-quiet S] [--out docs/performance.md]
//
// 1. OpenAPI generation time per plugin (in-process, built packages), the six first-party plugins.
// 2. Start-up time (spawn → first 200 from /healthz) and RSS of `portico serve` with all six plugins, with the plugins
//    it loads by default, and with one; the start-up path step by step; tools/list and describe_method latency and
//    payload with all six connected; each step of a request measured alone (the building blocks).
// 3. Throughput and latency, every path measured in the same run, at each connection count: direct to the upstream,
//    a bare node:http keep-alive proxy, a node:http + got hop and a Koa + got hop (references), Portico REST (with a
//    full key, and with a key bound to a tool set: the tool-set check's overhead) and Portico MCP tools/call, both
//    also against a second gateway started with PORTICO_DASHBOARD=off (the dashboard's cost to the two doors),
//    for a GET with query parameters (list_items) and a POST with a JSON body (create_item).
// 4. `portico serve --workers N`: REST throughput with 1 and 2 workers per CPU-second of the gateway processes, and the
//    IPC cost of a declared upstream limit (bench/measure/workers.mjs).
// 5. CPU profiles (node --cpu-prof) of the gateway under REST load and under MCP load.
// Writes bench/results/latest.json (+ the .cpuprofile files under bench/results/profiles/), then the report block of
// docs/performance.md (or of --out).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { quietWaiter } from './harness/machine.mjs';
import { measureBuildingBlocks } from './measure/building-blocks.mjs';
import { measureMcpDiscovery } from './measure/discovery.mjs';
import { environment, installedPluginCode } from './measure/environment.mjs';
import { measureOpenApi } from './measure/openapi.mjs';
import { profileGateway } from './measure/profiles.mjs';
import { measureSequential } from './measure/sequential.mjs';
import { HELP, readSettings } from './measure/settings.mjs';
import { measureStartup, measureStartupBreakdown } from './measure/startup.mjs';
import { measureThroughput } from './measure/throughput.mjs';
import { measureWorkers } from './measure/workers.mjs';
import { checkReportTarget, renderReport, renderSummary, writeReport } from './report/document.mjs';
import { LATEST, PROFILE_DIR, REPORT, writeResults } from './results.mjs';
import { installedPlugins, ROOT } from './workspace.mjs';

const read = readSettings(process.argv.slice(2));
if (read === 'help') {
  process.stdout.write(HELP);
  process.exit(0);
}
const settings = read;
const outPath = resolve(ROOT, settings.out);
checkReportTarget(outPath);
/** @param {string} line */
const log = (line) => process.stderr.write(`[bench] ${line}\n`);
const waitForQuiet = quietWaiter(settings.waitQuietMs, log);

// Every gateway child inherits this environment: none of the caller's PORTICO_ settings, the chosen log level.
for (const key of Object.keys(process.env)) if (key.startsWith('PORTICO_')) delete process.env[key];
process.env.PORTICO_LOG_LEVEL = settings.logLevel;
const installed = installedPlugins();

const started = performance.now();
const env = environment(settings);
env.busyBeforeRun = await waitForQuiet('before the run');
log(
  `machine: ${env.cpu}, ${env.cores} cores; node ${env.node}; ${settings.duration} s per scenario (+${settings.warmup} s warm-up), ${settings.rounds} round(s)`,
);
log('OpenAPI generation…');
const openapi = await measureOpenApi(installed, settings.openapiRuns);
log('start-up and RSS…');
const startup = await measureStartup(installed, settings, log);
log('start-up breakdown…');
const startupBreakdown = await measureStartupBreakdown();
log('tools/list and describe_method…');
const discovery = await measureMcpDiscovery(installed, openapi, settings);
log('per-request building blocks…');
const micro = await measureBuildingBlocks();
log('throughput and latency…');
const throughput = await measureThroughput(settings, log, waitForQuiet);
log('own CPU at one connection, in one process…');
await waitForQuiet('before the sequential run');
const sequential = await measureSequential(settings, log);
log('serve --workers 1 and 2…');
await waitForQuiet('before the workers');
const workers = await measureWorkers(settings, log);
let profiles;
if (settings.profile) {
  log('CPU profiles…');
  mkdirSync(PROFILE_DIR, { recursive: true });
  profiles = await profileGateway(PROFILE_DIR, settings, log);
  for (const f of readdirSync(PROFILE_DIR)) if (!f.startsWith('gateway-')) rmSync(join(PROFILE_DIR, f), { force: true });
}
const results = {
  environment: env,
  installedPluginCode: installedPluginCode(installed),
  openapi,
  startup,
  startupBreakdown,
  discovery,
  micro,
  throughput,
  sequential,
  workers,
  ...(profiles ? { profiles } : {}),
  elapsedS: (performance.now() - started) / 1000,
};

writeResults(results);
writeReport(outPath, renderSummary(results));
writeFileSync(REPORT, `# Bench report\n\n${renderReport(results)}`);
log(`wrote ${relative(ROOT, outPath)}, ${relative(ROOT, REPORT)} and ${relative(ROOT, LATEST)} in ${results.elapsedS.toFixed(0)} s`);
