// The per-request building blocks, each measured alone in a child process (processes/micro.mjs) against the
// benchmark upstream.
import { processFile, startChild, stopChild } from '../harness/children.mjs';

/** @typedef {import('../processes/micro.mjs').MicroRow} MicroRow */

export async function measureBuildingBlocks() {
  /** @type {import('../harness/children.mjs').Started<{ url: string }>} */
  const upstream = await startChild(processFile('upstream.mjs'));
  try {
    /** @type {import('../harness/children.mjs').Started<{ rows: MicroRow[] }>} */
    const child = await startChild(processFile('micro.mjs'), {}, ['--experimental-import-meta-resolve', '--no-warnings'], [upstream.url]);
    await stopChild(child.child);
    return child.rows;
  } finally {
    await stopChild(upstream.child);
  }
}
