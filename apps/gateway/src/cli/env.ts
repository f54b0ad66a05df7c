import { ENVIRONMENT } from '../config/environment.js';
import type { Command } from './command.js';

/** `portico env`: the environment variables the gateway reads, each with its meaning and default. */
export const envCommand: Command = {
  run: async (_args, _env, io) => {
    for (const v of ENVIRONMENT) io.out(`${v.name.padEnd(30)} ${v.meaning} (default: ${v.default})`);
    return 0;
  },
};
