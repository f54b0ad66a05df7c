// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package, and inclusive time by
// package (the share of samples with that package anywhere on the stack). Optionally restricted to a time window
// (µs, CLOCK_MONOTONIC, the clock of both V8's profile timestamps and process.hrtime), so start-up, warm-up and
// shutdown do not dilute the request path.
//   node bench/cpuprofile.mjs <file.cpuprofile> [top]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** @typedef {import('node:inspector').Profiler.Profile} Profile */
/** @typedef {import('node:inspector').Runtime.CallFrame} CallFrame */

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/**
 * file URL or node: URL → the package (or area) it belongs to.
 * @param {string} url
 * @param {string} functionName
 * @returns {string}
 */
export function packageOf(url, functionName) {
  if (!url) return SPECIAL.has(functionName) ? functionName : '(V8 builtins / native)';
  if (url.startsWith('node:')) {
    const rest = url.slice(5).replace(/^internal\//, '');
    const first = (rest.split('/')[0] ?? '').replace(/^_/, '').split('_')[0];
    return `node:${first}`;
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    const [scope = '', name = ''] = parts;
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  const m = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (m) return m[2] === 'core' ? '@portico/core' : m[1] === 'apps' ? `@portico/${m[2]}` : `@portico/${m[2]}`;
  if (url.includes('/bench/')) return 'bench';
  return url;
}

/** @param {string} url */
function shortPath(url) {
  if (!url) return '';
  let path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) path = path.slice(nm + '/node_modules/'.length);
  else path = path.replace(/^.*?\/(packages|apps|bench)\//, '$1/');
  return path;
}

// Portico's packages are compiled by tsc, one dist/….js per source file with a source map beside it (a build that
// bundles has one map per bundle, and a frame in it may be got, koa or Portico's own code). Frames are mapped back to
// their original file and line through the maps, so that time is attributed to the package the code came from.
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** @typedef {[generatedColumn: number, source: number, line: number, column: number]} Segment */
/** @typedef {{ lines: Segment[][], sources: string[] }} SourceMap */

/** @type {Map<string, SourceMap | null>} */
const sourceMaps = new Map();

/**
 * Decodes a source map's `mappings` into, per generated line, its segments sorted by generated column.
 * @param {string} mappings
 */
function decodeMappings(mappings) {
  /** @type {Segment[][]} */
  const lines = [];
  let source = 0;
  let line = 0;
  let column = 0;
  for (const text of mappings.split(';')) {
    /** @type {Segment[]} */
    const segments = [];
    let generated = 0;
    for (const segment of text.split(',')) {
      if (segment === '') continue;
      /** @type {number[]} */
      const values = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      const [columnDelta = 0, sourceDelta = 0, lineDelta = 0, columnInSourceDelta = 0] = values;
      generated += columnDelta;
      if (values.length < 4) continue;
      source += sourceDelta;
      line += lineDelta;
      column += columnInSourceDelta;
      segments.push([generated, source, line, column]);
    }
    lines.push(segments);
  }
  return lines;
}

/**
 * @param {string} url
 * @returns {SourceMap | null}
 */
function sourceMapFor(url) {
  const known = sourceMaps.get(url);
  if (known !== undefined) return known;
  /** @type {SourceMap | null} */
  let map = null;
  if (url.startsWith('file://') && url.endsWith('.js')) {
    const file = fileURLToPath(url);
    if (existsSync(`${file}.map`)) {
      /** @type {{ mappings: string, sources: string[], sourceRoot?: string }} */
      const raw = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
      const root = resolve(dirname(file), raw.sourceRoot ?? '');
      map = { lines: decodeMappings(raw.mappings), sources: raw.sources.map((s) => pathToFileURL(resolve(root, s)).href) };
    }
  }
  sourceMaps.set(url, map);
  return map;
}

/**
 * A call frame of a bundle → { url, lineNumber } of the original source (0-based line), or the frame unchanged.
 * @param {CallFrame} callFrame
 * @returns {CallFrame}
 */
export function originalFrame(callFrame) {
  const map = callFrame.url ? sourceMapFor(callFrame.url) : null;
  const segments = map?.lines[callFrame.lineNumber];
  if (!map || !segments || segments.length === 0) return callFrame;
  let found = /** @type {Segment} */ (segments[0]);
  for (const segment of segments) {
    if (segment[0] > callFrame.columnNumber) break;
    found = segment;
  }
  return { ...callFrame, url: map.sources[found[1]] ?? callFrame.url, lineNumber: found[2], columnNumber: found[3] };
}

/**
 * @typedef {object} Share
 * @property {number} ms
 * @property {number} shareOfBusy
 */
/** @typedef {Share & { function: string, file: string, package: string }} FunctionShare */
/** @typedef {Share & { package: string }} PackageShare */

/**
 * @param {Profile} profile parsed .cpuprofile
 * @param {{ startUs: number, endUs: number }} [window] µs on the profile's clock
 */
export function summarizeProfile(profile, window) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, { ...n, callFrame: originalFrame(n.callFrame) }]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Sample i lasts until sample i+1.
  /** @type {number[]} */
  const times = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas ?? []) {
    t += d;
    times.push(t);
  }
  /** @type {(ts: number) => boolean} */
  let inWindow = (ts) => window !== undefined && ts >= window.startUs && ts <= window.endUs;
  let windowed = Boolean(window);
  if (windowed && !times.some(inWindow)) windowed = false; // clocks did not line up: use the whole profile
  if (!windowed) inWindow = () => true;

  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const selfByPackage = new Map();
  /** @type {Map<string, number>} */
  const inclusiveByPackage = new Map();
  /** @type {Map<string, number>} */
  const inclusiveByFunction = new Map();
  const samples = profile.samples ?? [];
  let total = 0;
  let idle = 0;
  for (let i = 0; i < samples.length; i++) {
    const at = times[i] ?? 0;
    if (!inWindow(at)) continue;
    const duration = (times[i + 1] ?? at) - at;
    if (duration <= 0) continue;
    const node = nodes.get(/** @type {number} */ (samples[i]));
    if (!node) continue;
    const cf = node.callFrame;
    total += duration;
    if (cf.functionName === '(idle)') {
      idle += duration;
      continue;
    }
    const key = `${cf.functionName || '(anonymous)'}\u0000${cf.url}\u0000${cf.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + duration);
    const pkg = packageOf(cf.url, cf.functionName);
    selfByPackage.set(pkg, (selfByPackage.get(pkg) ?? 0) + duration);
    const seenPkg = new Set();
    const seenFn = new Set();
    for (let id = /** @type {number | undefined} */ (node.id); id !== undefined; id = parent.get(id)) {
      const f = nodes.get(id)?.callFrame;
      if (!f || f.functionName === '(root)') break;
      seenPkg.add(packageOf(f.url, f.functionName));
      seenFn.add(`${f.functionName || '(anonymous)'}\u0000${f.url}\u0000${f.lineNumber}`);
    }
    for (const p of seenPkg) inclusiveByPackage.set(p, (inclusiveByPackage.get(p) ?? 0) + duration);
    for (const f of seenFn) inclusiveByFunction.set(f, (inclusiveByFunction.get(f) ?? 0) + duration);
  }
  const busy = total - idle;
  /** @param {string} key */
  const describe = (key) => {
    const [fn = '', url = '', line] = key.split('\u0000');
    return { function: fn, file: url ? `${shortPath(url)}:${Number(line) + 1}` : '', package: packageOf(url, fn) };
  };
  /** @param {Map<string, number>} map */
  const rank = (map) =>
    [...map.entries()].sort((a, b) => b[1] - a[1]).map(([key, us]) => ({ key, ms: us / 1000, shareOfBusy: busy > 0 ? us / busy : 0 }));
  /** @type {{ selfByFunction: FunctionShare[], inclusiveByFunction: FunctionShare[], selfByPackage: PackageShare[], inclusiveByPackage: PackageShare[] }} */
  const ranked = {
    selfByFunction: rank(self).map((r) => ({ ...describe(r.key), ms: r.ms, shareOfBusy: r.shareOfBusy })),
    inclusiveByFunction: rank(inclusiveByFunction).map((r) => ({ ...describe(r.key), ms: r.ms, shareOfBusy: r.shareOfBusy })),
    selfByPackage: rank(selfByPackage).map((r) => ({ package: r.key, ms: r.ms, shareOfBusy: r.shareOfBusy })),
    inclusiveByPackage: rank(inclusiveByPackage).map((r) => ({ package: r.key, ms: r.ms, shareOfBusy: r.shareOfBusy })),
  };
  return {
    windowed,
    totalMs: total / 1000,
    busyMs: busy / 1000,
    idleShare: total > 0 ? idle / total : 0,
    ...ranked,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top = '25'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/cpuprofile.mjs <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const summary = summarizeProfile(/** @type {Profile} */ (JSON.parse(readFileSync(file, 'utf8'))));
  /** @param {number} x */
  const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6);
  process.stdout.write(`busy ${summary.busyMs.toFixed(0)} ms, idle ${pct(summary.idleShare)} of the profile\n\nself time by function:\n`);
  for (const r of summary.selfByFunction.slice(0, Number(top))) process.stdout.write(`${pct(r.shareOfBusy)}  ${r.function}  ${r.file}\n`);
  process.stdout.write('\nself time by package:\n');
  for (const r of summary.selfByPackage.slice(0, Number(top))) process.stdout.write(`${pct(r.shareOfBusy)}  ${r.package}\n`);
  process.stdout.write('\ninclusive time by package:\n');
  const pseudo = ['(program)', '(garbage collector)', '(V8 builtins / native)', 'node:process'];
  for (const r of summary.inclusiveByPackage.filter((x) => !pseudo.includes(x.package)).slice(0, Number(top))) {
    process.stdout.write(`${pct(r.shareOfBusy)}  ${r.package}\n`);
  }
}
