import type { Logger } from '@portico/core';

const FIRST_WAIT_MS = 250;
const LONGEST_WAIT_MS = 5_000;

/**
 * Errors that say the database cannot be reached yet (not that it refused us): the network, the server starting or
 * shutting down, its connection limit. A wrong password or a missing database is not waited for.
 */
const NOT_YET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
const NOT_YET_SQLSTATE = new Set(['57P03', '57P01', '57P02', '53300', '08000', '08001', '08003', '08006']);

function notYet(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (NOT_YET.has(code) || NOT_YET_SQLSTATE.has(code))) return code;
  // A server that took the connection and did not answer within the connect timeout (pg: "timeout expired").
  if (error instanceof Error && /timeout expired/i.test(error.message)) return 'no answer within PORTICO_DATABASE_CONNECT_SECONDS';
  if (error instanceof Error && /Connection terminated/i.test(error.message)) return 'connection lost';
  return undefined;
}

/**
 * Runs `attempt` (the first use of the database: migrations) until it succeeds, waiting 250 ms, then twice as long
 * each time up to 5 s, while the database cannot be reached, for at most `limitMs` in all; each retry is logged.
 * Any other error, or the last one once the time is up, is thrown.
 */
export async function waitForDatabase<T>(attempt: () => Promise<T>, limitMs: number, logger: Logger): Promise<T> {
  const started = Date.now();
  let wait = FIRST_WAIT_MS;
  for (let tries = 1; ; tries++) {
    try {
      const result = await attempt();
      if (tries > 1) logger.info({ attempts: tries, waitedMs: Date.now() - started }, 'the database answered');
      return result;
    } catch (error) {
      const reason = notYet(error);
      const left = limitMs - (Date.now() - started);
      if (reason === undefined || left <= 0) {
        if (reason !== undefined) {
          throw new Error(
            `the database could not be reached within ${Math.round(limitMs / 1000)} s (${reason}; PORTICO_DATABASE_WAIT_SECONDS)`,
            {
              cause: error,
            },
          );
        }
        throw error;
      }
      const delay = Math.min(wait, left);
      logger.warn({ attempt: tries, reason, retryInMs: delay }, 'the database cannot be reached yet; retrying');
      await new Promise((resolve) => setTimeout(resolve, delay));
      wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    }
  }
}
