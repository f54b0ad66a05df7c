#!/usr/bin/env node
import { main } from './cli.js';

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
