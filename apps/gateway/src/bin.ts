#!/usr/bin/env node
import { main } from './cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    // `serve` resolves after a clean shutdown; every other command after its work is done.
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`portico: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
