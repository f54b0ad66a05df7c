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
