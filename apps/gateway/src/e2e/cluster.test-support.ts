import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropTestSchemas } from '../gateway.test-support.js';

/** The built CLI (`pnpm build` first): real `portico` processes, as an operator runs them. */
export const root = fileURLToPath(new URL('../../../../', import.meta.url));
export const bin = join(root, 'apps/gateway/dist/bin.js');

/**
 * The time a test that starts several gateway processes may take. Each start costs a Node process and its imports,
 * which on a busy two-core CI machine (the whole suite running beside it) takes seconds rather than the idle 0.6 s;
 * the default 20 s timed such tests out without anything being wrong.
 */
export const MULTI_PROCESS_TIMEOUT = 90_000;

export interface PorticoProcess {
  child: ChildProcess;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Starts `portico <args>` with `env` (and PATH); its output is collected. */
export function runPortico(args: string[], env: Record<string, string>): PorticoProcess {
  const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Resolves with the URL `portico serve` prints once listening; rejects if it exits first or takes over 30 s. */
export function listening(process: PorticoProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${process.output()}`)), 30_000);
    const check = () => {
      const match = /is listening on (http:\/\/[0-9.:]+)/.exec(process.output());
      if (!match) return;
      clearTimeout(timer);
      resolve(match[1] as string);
    };
    process.child.stdout?.on('data', check);
    process.child.stderr?.on('data', check);
    void process.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`gateway exited (${code}):\n${process.output()}`));
    });
    check();
  });
}

/** Stops a process with SIGTERM and waits for it. */
export async function stop(process: PorticoProcess): Promise<void> {
  if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGTERM');
  await process.exited;
}

/** A fresh PostgreSQL schema name for one test file, and a function dropping every schema made. */
export function schemas(prefix: string): { fresh(): string; dropAll(): Promise<void> } {
  const made: string[] = [];
  return {
    fresh() {
      const name = `${prefix}_${randomBytes(4).toString('hex')}`;
      made.push(name);
      return name;
    },
    async dropAll() {
      await dropTestSchemas(...made);
    },
  };
}
