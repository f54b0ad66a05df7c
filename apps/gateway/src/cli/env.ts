import { environmentListing, environmentTable } from '../config/environment-docs.js';
import { type Command, UsageError } from './command.js';

const HELP = `Usage: portico env [--markdown]

Lists every environment variable the gateway reads, with what it sets and its default. Every command (serve and the
others) reads the same variables; a misspelt PORTICO_ variable stops them, naming the one meant.

Options:
  --markdown     The same as the table of docs/configuration.md`;

/** `portico env`: the environment variables the gateway reads, each with its meaning and default. */
export const envCommand: Command = {
  help: HELP,
  run: async (args, _env, io) => {
    const unknown = args.filter((arg) => arg !== '--markdown');
    if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]} (see portico env --help)`);
    if (args.includes('--markdown')) io.out(environmentTable());
    else for (const line of environmentListing()) io.out(line);
    return 0;
  },
};
