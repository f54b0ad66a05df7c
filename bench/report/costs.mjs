// Where a request's CPU goes: the building blocks measured alone, and the CPU profiles of the gateway under REST and
// under MCP load (by package and by function, and what the MCP door adds).
import { int, ms, pct, table } from './markdown.mjs';

/** @typedef {import('../results.mjs').Results} Results */
/** @typedef {import('../measure/profiles.mjs').Profiles} Profiles */
/** @typedef {Profiles['rest']} Profile */

// Frames at the root of every async continuation: their inclusive share says nothing about cost.
const PSEUDO = ['(program)', '(garbage collector)', '(V8 builtins / native)', 'node:process'];

/**
 * @param {Results} results
 * @returns {string[]}
 */
export function buildingBlocksSection(results) {
  if (!results.micro) return [];
  return [
    '## Per-request building blocks',
    '',
    'Each step of a request measured alone, in-process, calls one after another (`bench/processes/micro.mjs`; no profiler, so nothing is inflated). ' +
      'Wall µs is elapsed time per call; CPU µs is the process CPU time per call (all threads, so GC helper threads can make it exceed wall time). ' +
      'Steps that wait on the upstream include its round trip.',
    '',
    table(
      ['step', 'where', 'wall µs / call', 'CPU µs / call'],
      results.micro.map((x) => [
        x.step.replace(/^ {2}/, '↳ '),
        x.where,
        x.us === null ? `skipped: ${x.skipped}` : ms(x.us, 1),
        x.cpuUs == null ? '–' : ms(x.cpuUs, 1),
      ]),
    ),
    '',
  ];
}

/**
 * µs per request of a share of the profile's busy CPU.
 * @param {Profile} profile
 * @param {number} share
 */
function perRequest(profile, share) {
  return share * profile.busyUsPerRequest;
}

/**
 * @param {string} name
 * @param {Profile} p
 * @param {number} unprofiledRps
 */
function profileSection(name, p, unprofiledRps) {
  const lines = [];
  lines.push(
    `**${name}** (\`${p.file}\`): ${p.connections} connections, both operations alternating, ${int(p.rps)} req/s under the profiler ` +
      `(${int(unprofiledRps)} req/s without it, mean of the two operations above), ` +
      `${int(p.requests)} requests in the window; gateway busy ${pct(1 - p.idleShare)} of the window, ` +
      `**${int(p.busyUsPerRequest)} µs of gateway CPU per request**${p.windowed ? '' : ' (whole profile: the load window could not be located)'}.`,
    '',
  );
  lines.push('Inclusive time by package (the package is anywhere on the stack; shares overlap):', '');
  lines.push(
    table(
      ['package', 'share of busy CPU', 'µs / request'],
      p.inclusiveByPackage
        .filter((x) => !PSEUDO.includes(x.package))
        .slice(0, 14)
        .map((x) => [`\`${x.package}\``, pct(x.shareOfBusy, 1), int(perRequest(p, x.shareOfBusy))]),
    ),
    '',
  );
  lines.push('Self time by package:', '');
  lines.push(
    table(
      ['package', 'share of busy CPU', 'µs / request'],
      p.selfByPackage.slice(0, 12).map((x) => [`\`${x.package}\``, pct(x.shareOfBusy, 1), int(perRequest(p, x.shareOfBusy))]),
    ),
    '',
  );
  lines.push('Top self-time functions:', '');
  lines.push(
    table(
      ['function', 'file', 'share of busy CPU', 'µs / request'],
      p.selfByFunction
        .slice(0, 20)
        .map((x) => [`\`${x.function}\``, x.file ? `\`${x.file}\`` : '', pct(x.shareOfBusy, 1), ms(perRequest(p, x.shareOfBusy), 1)]),
    ),
    '',
  );
  const ours = p.inclusiveByFunction.filter((x) => x.package.startsWith('@portico/')).slice(0, 14);
  if (ours.length > 0) {
    lines.push("Portico's own functions, inclusive (with everything they call):", '');
    lines.push(
      table(
        ['function', 'file', 'share of busy CPU', 'µs / request'],
        ours.map((x) => [`\`${x.function}\``, `\`${x.file}\``, pct(x.shareOfBusy, 1), int(perRequest(p, x.shareOfBusy))]),
      ),
      '',
    );
  }
  return lines.join('\n');
}

/**
 * Per-request µs by package (inclusive) in MCP minus REST: what the MCP door adds.
 * @param {Profiles} profiles
 */
function mcpExtra(profiles) {
  const rest = new Map(profiles.rest.inclusiveByPackage.map((x) => [x.package, perRequest(profiles.rest, x.shareOfBusy)]));
  return profiles.mcp.inclusiveByPackage
    .filter((x) => !PSEUDO.includes(x.package))
    .map((x) => ({ package: x.package, mcp: perRequest(profiles.mcp, x.shareOfBusy), rest: rest.get(x.package) ?? 0 }))
    .map((x) => ({ ...x, extra: x.mcp - x.rest }))
    .sort((a, b) => b.extra - a.extra);
}

/**
 * @param {Results} results
 * @returns {string[]}
 */
export function profilesSection(results) {
  const { profiles } = results;
  if (!profiles) return [];
  const L = ['## CPU profiles', ''];
  L.push(
    'The gateway child run with `node --cpu-prof` (1 ms sampling) under each protocol, samples restricted to the load window ' +
      '(start-up, warm-up and shutdown excluded). "µs / request" = share of busy CPU × busy CPU per request. ' +
      'Open the `.cpuprofile` files in Chrome DevTools (Performance) or summarise one with `node bench/cpuprofile.mjs <file>`. ' +
      'The profiler itself costs throughput, and more where code is generated at run time (it records every new function): ' +
      'shares are indicative, the building blocks above are the undistorted costs.',
    '',
  );
  /** @param {'rest' | 'mcp'} path */
  const unprofiled = (path) => {
    const rows = results.throughput.scenarios.filter((x) => x.target === path && x.connections === profiles.rest.connections);
    return rows.reduce((a, x) => a + x.rps, 0) / Math.max(1, rows.length);
  };
  L.push(profileSection('REST', profiles.rest, unprofiled('rest')), '');
  L.push(profileSection('MCP', profiles.mcp, unprofiled('mcp')), '');
  L.push('What the MCP door adds per request (inclusive µs per request by package, MCP minus REST):', '');
  L.push(
    table(
      ['package', 'MCP µs/req', 'REST µs/req', 'difference'],
      mcpExtra(profiles)
        .slice(0, 10)
        .map((x) => [`\`${x.package}\``, int(x.mcp), int(x.rest), int(x.extra)]),
    ),
    '',
  );
  return L;
}
