// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package, and inclusive time by
// package (the share of samples with that package anywhere on the stack). Optionally restricted to a time window
// (µs, CLOCK_MONOTONIC, the clock of both V8's profile timestamps and process.hrtime), so start-up, warm-up and
// shutdown do not dilute the request path.
//   node bench/cpuprofile.mjs <file.cpuprofile> [top]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)', '(root)']);

/** file URL or node: URL → the package (or area) it belongs to. */
export function packageOf(url, functionName) {
  if (!url) return SPECIAL.has(functionName) ? functionName : '(V8 builtins / native)';
  if (url.startsWith('node:')) {
    const rest = url.slice(5).replace(/^internal\//, '');
    const first = rest.split('/')[0].replace(/^_/, '').split('_')[0];
    return `node:${first}`;
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const m = /\/(packages|apps)\/([^/]+)\//.exec(url);
  if (m) return m[2] === 'core' ? '@portico/core' : m[1] === 'apps' ? `@portico/${m[2]}` : `@portico/${m[2]}`;
  if (url.includes('/bench/')) return 'bench';
  return url;
}

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
const sourceMaps = new Map();

/** Decodes a source map's `mappings` into, per generated line, [generatedColumn, sourceIndex, line, column] sorted. */
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  let line = 0;
  let column = 0;
  for (const text of mappings.split(';')) {
    const segments = [];
    let generated = 0;
    for (const segment of text.split(',')) {
      if (segment === '') continue;
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
      generated += values[0];
      if (values.length < 4) continue;
      source += values[1];
      line += values[2];
      column += values[3];
      segments.push([generated, source, line, column]);
    }
    lines.push(segments);
  }
  return lines;
}

function sourceMapFor(url) {
  if (sourceMaps.has(url)) return sourceMaps.get(url);
  let map = null;
  if (url.startsWith('file://') && url.endsWith('.js')) {
    const file = fileURLToPath(url);
    if (existsSync(`${file}.map`)) {
      const raw = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
      const root = resolve(dirname(file), raw.sourceRoot ?? '');
      map = { lines: decodeMappings(raw.mappings), sources: raw.sources.map((s) => pathToFileURL(resolve(root, s)).href) };
    }
  }
  sourceMaps.set(url, map);
  return map;
}

/** A call frame of a bundle → { url, lineNumber } of the original source (0-based line), or the frame unchanged. */
export function originalFrame(callFrame) {
  const map = callFrame.url ? sourceMapFor(callFrame.url) : null;
  const segments = map?.lines[callFrame.lineNumber];
  if (!segments || segments.length === 0) return callFrame;
  let found = segments[0];
  for (const segment of segments) {
    if (segment[0] > callFrame.columnNumber) break;
    found = segment;
  }
  return { ...callFrame, url: map.sources[found[1]], lineNumber: found[2], columnNumber: found[3] };
}

/**
 * @param profile parsed .cpuprofile
 * @param window optional { startUs, endUs }
 */
export function summarizeProfile(profile, window) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, { ...n, callFrame: originalFrame(n.callFrame) }]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  // Sample i lasts until sample i+1.
  const times = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) {
    t += d;
    times.push(t);
  }
  let inWindow = (ts) => ts >= window.startUs && ts <= window.endUs;
  let windowed = Boolean(window);
  if (windowed && !times.some(inWindow)) windowed = false; // clocks did not line up: use the whole profile
  if (!windowed) inWindow = () => true;

  const self = new Map();
  const selfByPackage = new Map();
  const inclusiveByPackage = new Map();
  const inclusiveByFunction = new Map();
  let total = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    if (!inWindow(times[i])) continue;
    const duration = (i + 1 < times.length ? times[i + 1] : times[i]) - times[i];
    if (duration <= 0) continue;
    const node = nodes.get(profile.samples[i]);
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
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const f = nodes.get(id).callFrame;
      if (f.functionName === '(root)') break;
      seenPkg.add(packageOf(f.url, f.functionName));
      seenFn.add(`${f.functionName || '(anonymous)'}\u0000${f.url}\u0000${f.lineNumber}`);
    }
    for (const p of seenPkg) inclusiveByPackage.set(p, (inclusiveByPackage.get(p) ?? 0) + duration);
    for (const f of seenFn) inclusiveByFunction.set(f, (inclusiveByFunction.get(f) ?? 0) + duration);
  }
  const busy = total - idle;
  const describe = (key) => {
    const [fn, url, line] = key.split('\u0000');
    return { function: fn, file: url ? `${shortPath(url)}:${Number(line) + 1}` : '', package: packageOf(url, fn) };
  };
  const rank = (map) =>
    [...map.entries()].sort((a, b) => b[1] - a[1]).map(([key, us]) => ({ key, ms: us / 1000, shareOfBusy: busy > 0 ? us / busy : 0 }));
  return {
    windowed,
    totalMs: total / 1000,
    busyMs: busy / 1000,
    idleShare: total > 0 ? idle / total : 0,
    selfByFunction: rank(self).map((r) => ({ ...describe(r.key), ms: r.ms, shareOfBusy: r.shareOfBusy })),
    inclusiveByFunction: rank(inclusiveByFunction).map((r) => ({ ...describe(r.key), ms: r.ms, shareOfBusy: r.shareOfBusy })),
    selfByPackage: rank(selfByPackage).map((r) => ({ package: r.key, ms: r.ms, shareOfBusy: r.shareOfBusy })),
    inclusiveByPackage: rank(inclusiveByPackage).map((r) => ({ package: r.key, ms: r.ms, shareOfBusy: r.shareOfBusy })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top = '25'] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/cpuprofile.mjs <file.cpuprofile> [top]\n');
    process.exit(2);
  }
  const summary = summarizeProfile(JSON.parse(readFileSync(file, 'utf8')));
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
