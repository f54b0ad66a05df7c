// A worker's half of `serve --workers N`'s slot borrowing, alone: forked by bench/measure/workers.mjs, whose process
// holds the primary's half. Takes and gives back `count` slots of a connection one after the other (each acquire waits
// for the primary's answer; a release is a message without one) and reports the time and its own CPU.
import { importWorkerCoordination } from '../workspace.mjs';

const { WorkerLink } = await importWorkerCoordination();
const link = new WorkerLink({
  send: (message) => process.send?.(message),
  onMessage: (listener) => process.on('message', listener),
});
const count = Number(process.argv[2] ?? 10_000);
/** @param {number} n */
const borrow = async (n) => {
  for (let i = 0; i < n; i++) (await link.acquire('example', 'default', 1_000))();
};
await borrow(Math.min(2_000, count)); // warm-up
const cpu = process.cpuUsage();
const started = performance.now();
await borrow(count);
const elapsedMs = performance.now() - started;
const used = process.cpuUsage(cpu);
process.send?.({ borrowed: { count, elapsedMs, workerCpuUs: used.user + used.system } });
process.disconnect();
