// Own CPU at one connection, in one process: the benchmark upstream, the Koa + got hop and the gateway (the example
// gateway of example-gateway.mjs) all run here, and a sequential keep-alive client sends them the same requests, one
// at a time. The process's CPU time per request (utime + stime, all threads) is then the client's, the upstream's and
// the hop's or the gateway's; the client and the upstream cost the same for both, so the gateway's figure minus the
// hop's is what the gateway adds, without the scheduling noise of three processes sharing two cores under load.
// Each round measures every target once, in turn; run as a child process by measure/sequential.mjs:
// node bench/processes/sequential.mjs <requests per round> <warm-up requests> <rounds>
import { send } from '../harness/client.mjs';
import { OPERATIONS, probe, requestFor } from '../measure/scenarios.mjs';
import { startExampleGateway } from './example-gateway.mjs';
import { porticoGot } from './got-client.mjs';
import { koaGotApp } from './koa-got-app.mjs';
import { createUpstream } from './upstream-server.mjs';

/** @typedef {import('../measure/scenarios.mjs').OperationId} OperationId */
/** @typedef {'koa' | 'rest' | 'mcp'} SequentialTarget */
/**
 * @typedef {object} SequentialRun
 * @property {OperationId} op
 * @property {SequentialTarget} target
 * @property {number} round
 * @property {number} usPerRequest CPU µs of this process per request
 */

const [requests, warmup, rounds] = process.argv.slice(2, 5).map(Number);

// The hop's got has its cache options emptied as the gateway's has (got-client.mjs), so this section compares them
// with the same got settings.

/** @param {import('node:net').Server} server */
const listen = (server) =>
  new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`),
    );
  });

const upstreamUrl = /** @type {string} */ (await listen(createUpstream()));
const hopServer = koaGotApp(upstreamUrl, porticoGot).listen(0, '127.0.0.1');
await new Promise((resolve) => hopServer.once('listening', resolve));
const hopUrl = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (hopServer.address()).port}`;
const { gateway, key, stop } = await startExampleGateway('sequential', upstreamUrl);

/** @type {SequentialTarget[]} */
const TARGETS = ['koa', 'rest', 'mcp'];
/** @param {SequentialTarget} target */
const urlOf = (target) => (target === 'koa' ? hopUrl : gateway.url);

/**
 * CPU µs of this process per request, over `n` requests one after the other.
 * @param {SequentialTarget} target
 * @param {OperationId} op
 * @param {number} n
 */
async function cpuPerRequest(target, op, n) {
  const req = requestFor(target, op, { key });
  const url = `${urlOf(target)}${req.path}`;
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const answer = await send(url, req);
    if (answer.status < 200 || answer.status >= 300) throw new Error(`${target} ${op}: ${answer.status} ${answer.text.slice(0, 200)}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

for (const op of OPERATIONS) {
  for (const target of TARGETS) {
    await probe(urlOf(target), requestFor(target, op, { key }));
    await cpuPerRequest(target, op, warmup ?? 0);
  }
}
/** @type {SequentialRun[]} */
const runs = [];
for (let round = 0; round < (rounds ?? 1); round++) {
  for (const op of OPERATIONS) {
    for (const target of TARGETS) runs.push({ op, target, round, usPerRequest: await cpuPerRequest(target, op, requests ?? 1) });
  }
}
process.send?.({ ready: true, runs });
hopServer.close();
await stop();
