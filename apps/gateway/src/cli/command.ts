import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/load.js';
import { createLogger } from '../observability/logger.js';
import { openRuntime, type Runtime } from '../runtime/runtime.js';

/** What the CLI reads and writes: injectable, so that tests run commands in-process. */
export type Io = {
  out: (line: string) => void;
  err: (line: string) => void;
  /** All of standard input (a token piped in). */
  stdin: () => string;
  /** Asks one question on the terminal and resolves the line typed (the confirmation of a deletion). */
  prompt?: (question: string) => Promise<string>;
};

/** A mistake in the command line or in what it asks for: printed without a stack, exit code 2. */
export class UsageError extends Error {}

/** The `--workspace` option of the commands that act on a workspace's records. */
export const WORKSPACE_OPTION = { workspace: { type: 'string', default: 'default' } } as const;

/** One `portico` command: the text of `portico <command> --help` beside what the command does. */
export interface Command {
  help: string;
  /** Runs the command with the arguments after its name; resolves to the process exit code. */
  run(args: string[], env: NodeJS.ProcessEnv, io: Io): Promise<number>;
}

/**
 * Commands other than `serve` act on a database that exists: without PORTICO_DATABASE_URL, the embedded default
 * (<data dir>/portico.db) must be there already, unless `--create` asks for a new one. Otherwise a command run from the
 * wrong directory, or on a host of a PostgreSQL cluster without the variable, would write a key or a setting into a
 * fresh file that no gateway reads, and exit 0.
 */
export function refuseUnnamedDatabase(env: NodeJS.ProcessEnv, create: boolean): void {
  if (env.PORTICO_DATABASE_URL || create) return;
  const url = loadConfig(env).databaseUrl;
  const path = url.startsWith('file://') ? fileURLToPath(url) : url.slice('file:'.length);
  if (existsSync(path)) return;
  throw new UsageError(
    `no database to act on: PORTICO_DATABASE_URL is not set and ${path} does not exist. Set PORTICO_DATABASE_URL to the ` +
      "gateway's database (postgres://… for a cluster), run from the directory holding the gateway's data/ (or set " +
      'PORTICO_DATA_DIR), or add --create to make a new embedded database there.',
  );
}

/** Opens the runtime (database, plugins, engine) for one command, and closes it after, whatever happens. */
export async function withRuntime(env: NodeJS.ProcessEnv, run: (runtime: Runtime) => Promise<number>): Promise<number> {
  const config = loadConfig(env);
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr));
  try {
    return await run(runtime);
  } finally {
    await runtime.close();
  }
}

/** Repeated `name=value` options (`--set`, `--meta`) as one record. */
export function pairs(list: string[] | undefined, flag: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of list ?? []) {
    const at = item.indexOf('=');
    if (at < 1) throw new UsageError(`${flag} takes name=value (got "${item}")`);
    out[item.slice(0, at)] = item.slice(at + 1);
  }
  return out;
}

/** Table cells padded to their column widths, the trailing blanks of the last one trimmed. */
export const pad = (cells: string[], widths: number[]) =>
  cells
    .map((cell, i) => cell.padEnd(widths[i] ?? 0))
    .join(' ')
    .trimEnd();
