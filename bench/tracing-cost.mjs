// What OpenTelemetry tracing costs a REST call: the gateway's CPU time (user + system, from process.cpuUsage()) per
// call, for this checkout with tracing off and with spans exported over OTLP/HTTP to a sink on loopback, and for a
// baseline checkout when one is given (a build from before tracing: the cost of the code when off). Every variant runs
// in the same run, in alternating rounds, against one loopback upstream. Needs `pnpm build` (and one in the baseline).
//
//   node bench/tracing-cost.mjs [--baseline /path/to/other/checkout] [--rounds 20] [--calls 1000]
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { ROOT } from './workspace.mjs';

const { values } = parseArgs({ options: { baseline: { type: 'string' }, rounds: { type: 'string' }, calls: { type: 'string' } } });
const ROUNDS = Number(values.rounds ?? 20);
const CALLS = Number(values.calls ?? 1000);
const CONNECTIONS = 8;

/** @param {import('node:http').Server} server */
const listen = (server) =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`),
    ),
  );
const upstream = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[{"id":"1","name":"a"}]}'));
});
let exportedBytes = 0;
const sink = createServer((request, response) => {
  request.on('data', (/** @type {Buffer} */ chunk) => {
    exportedBytes += chunk.length;
  });
  request.on('end', () => response.writeHead(200).end('{}'));
});
const upstreamUrl = /** @type {string} */ (await listen(upstream));
const sinkUrl = /** @type {string} */ (await listen(sink));

/** @typedef {{ name: string, root: string, env: Record<string, string>, child?: import('node:child_process').ChildProcess, url?: string, key?: string, samples: number[] }} Variant */
/** @type {Variant[]} */
const variants = [
  ...(values.baseline ? [{ name: 'baseline', root: values.baseline, env: {}, samples: [] }] : []),
  { name: 'tracing off', root: ROOT, env: {}, samples: [] },
  { name: 'tracing on (OTLP http/protobuf, loopback)', root: ROOT, env: { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl }, samples: [] },
];
const script = new URL('./processes/tracing-gateway.mjs', import.meta.url).pathname;
for (const variant of variants) {
  const child = fork(script, [variant.root, upstreamUrl], {
    env: { PATH: process.env.PATH ?? '', ...variant.env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = /** @type {{ url: string, key: string }} */ (await new Promise((resolve) => child.once('message', resolve)));
  Object.assign(variant, { child, url: ready.url, key: ready.key });
}

/** @param {Variant} variant @returns {Promise<NodeJS.CpuUsage>} */
const cpu = (variant) =>
  new Promise((resolve) => {
    variant.child?.once('message', (/** @type {{ cpu: NodeJS.CpuUsage }} */ message) => resolve(message.cpu));
    variant.child?.send('cpu');
  });
/** @param {Variant} variant @param {number} calls */
async function load(variant, calls) {
  let next = 0;
  const worker = async () => {
    while (next++ < calls) {
      const response = await fetch(`${variant.url}/api/v1/example/items`, { headers: { authorization: `Bearer ${variant.key}` } });
      if (response.status !== 200) throw new Error(`${variant.name}: ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

for (const variant of variants) await load(variant, 3 * CALLS); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of round % 2 ? [...variants].reverse() : variants) {
    const before = await cpu(variant);
    await load(variant, CALLS);
    const after = await cpu(variant);
    variant.samples.push((after.user - before.user + after.system - before.system) / CALLS);
  }
}
/** @param {number[]} sorted @param {number} q */
const quantile = (sorted, q) => sorted[Math.floor(q * (sorted.length - 1))] ?? 0;
for (const variant of variants) {
  const sorted = [...variant.samples].sort((a, b) => a - b);
  const [low, median, high] = [0.25, 0.5, 0.75].map((q) => quantile(sorted, q).toFixed(0));
  console.log(`${variant.name}: ${median} µs CPU per REST call (quartiles ${low}–${high}; ${ROUNDS} rounds of ${CALLS})`);
  variant.child?.send('stop');
}
console.log(`OTLP bytes exported: ${exportedBytes}`);
await new Promise((resolve) => setTimeout(resolve, 1_000));
upstream.close();
sink.close();
