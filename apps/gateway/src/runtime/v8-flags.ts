import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flag every `portico` process sets before it loads anything else, unless node's own command line already
 * decides it: allocation-site pretenuring off. With V8's default, a gateway process often came to allocate some
 * per-request objects straight in the old generation; the young objects they point to then survive every scavenge
 * until the next full collection (20 KB promoted per request instead of 2 in a `serve --workers` worker, in 21 of 22
 * runs), and the CPU per request moves between two levels from one start to the next. Measured in docs/performance.md ("Issue 31:
 * workers, on a quieter machine") and decided in docs/decisions.md ("V8's allocation-site pretenuring is off").
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
