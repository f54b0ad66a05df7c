#!/usr/bin/env node
import * as nodeModule from 'node:module';
import { tuneV8 } from './runtime/v8-flags.js';

// V8's allocation-site pretenuring off, in this process and so in every worker it forks, before anything that serves a
// request is loaded (runtime/v8-flags.ts; node's own command line can decide otherwise).
tuneV8();

// Node 22.1 and later can keep the compiled code of every module it loads in a cache on disk (in the OS temp folder
// unless NODE_COMPILE_CACHE names another): the gateway's modules and their dependencies load from node_modules one
// file at a time, and with the cache a restart skips compiling them (docs/adr/0014-unbundled-packages.md). Node 20 has no such cache and starts without it. The rest of the CLI is imported after this line so that it is cached too.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { main } = await import('./cli/index.js');

/** After a command (or a graceful `serve` shutdown) is done, how long a stray handle may keep the process alive. */
const EXIT_BACKSTOP_MS = 2_000;

main(process.argv.slice(2)).then(
  (code) => {
    // `serve` resolves after a clean shutdown; every other command after its work is done. The process then ends by
    // itself; if something still holds the event loop open, the backstop ends it (unref'd: it never delays an exit).
    process.exitCode = code;
    setTimeout(() => process.exit(code), EXIT_BACKSTOP_MS).unref();
  },
  (error: unknown) => {
    process.stderr.write(`portico: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
