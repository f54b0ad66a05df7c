import { processFile, startChild, stopChild } from './harness/children.mjs';
import { requestFor } from './measure/scenarios.mjs';
const upstream = await startChild(processFile('upstream.mjs'));
const gateway = await startChild(processFile('gateway.mjs'), {}, [], [upstream.url]);
const hop = await startChild(processFile('koa-got-hop.mjs'), {}, [], [upstream.url]);
for (const [kind, t] of [['rest', gateway], ['koa', hop]]) {
  const r = requestFor(kind, 'POST', kind === 'koa' ? { key: '' } : gateway);
  const res = await fetch(t.url + r.path, { method: r.method, headers: r.headers, body: r.body });
  console.log(kind, res.status, JSON.stringify([...res.headers]), (await res.text()).length);
}
await stopChild(gateway.child); await stopChild(hop.child); await stopChild(upstream.child);
