import { ENVIRONMENT } from '../config/environment.js';
import type { Command } from './command.js';

const HELP = `Usage: portico env

Lists every environment variable the gateway reads, with what it sets and its default. Every command (serve and the
others) reads the same variables.`;

/** `portico env`: the environment variables the gateway reads, each with its meaning and default. */
export const envCommand: Command = {
  help: HELP,
  run: async (_args, _env, io) => {
    for (const v of ENVIRONMENT) io.out(`${v.name.padEnd(30)} ${v.meaning} (default: ${v.default})`);
    return 0;
  },
};
