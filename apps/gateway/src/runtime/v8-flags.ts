import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flag every `portico` process sets before it loads anything else, unless node's own command line already
 * decides it: allocation-site pretenuring off. With V8's default, a gateway process often came to allocate some
 * per-request objects straight in the old generation; the young objects they point to then survive every scavenge
 * until the next full collection (20 KB promoted per request instead of 2 in a `serve --workers` worker, in 21 of 22
 * runs), and the CPU per request moves between two levels from one start to the next. Decided in
 * docs/adr/0010-v8-flags.md.
 */
export const PRETENURING_OFF = '--no-allocation-site-pretenuring';

/** The flag to set, or undefined when node was started with either form of it (the operator's choice stands). */
export function pretenuringFlag(execArgv: readonly string[]): string | undefined {
  return execArgv.some((flag) => /^--(no-)?allocation[-_]site[-_]pretenuring$/.test(flag)) ? undefined : PRETENURING_OFF;
}

/** Sets {@link pretenuringFlag} in this process: call it first, before the code that serves requests is loaded. */
export function tuneV8(execArgv: readonly string[] = process.execArgv): void {
  const flag = pretenuringFlag(execArgv);
  if (flag) setFlagsFromString(flag);
}

/**
 * The young generation's smallest size, MB per semi-space, so that it keeps its pages: with V8's default it shrinks
 * after a quiet spell, gives its pages back, and takes them from the kernel again, page fault by page fault, when load
 * returns (up to 1.1 page faults per request in the seconds after a quiet spell, against 0.1 with the size fixed, and
 * 12–32 % more CPU per request; docs/adr/0010-v8-flags.md). Start-up takes as long; its
 * RSS grows by about 4 MB with six plugins.
 */
export const SEMI_SPACE_MB = 16;
export const SEMI_SPACE_FLAG = `--min-semi-space-size=${SEMI_SPACE_MB}`;

/**
 * node's own flags for a process that serves requests (a `serve --workers` worker): V8 reads the young generation's
 * size only when the process starts, and NODE_OPTIONS does not accept this flag. Empty when node's command line already
 * sizes the young generation (the operator's choice stands).
 */
export function startFlags(execArgv: readonly string[]): string[] {
  return execArgv.some((flag) => /^--(min|max)[-_]semi[-_]space[-_]size(=|$)/.test(flag)) ? [] : [SEMI_SPACE_FLAG];
}
