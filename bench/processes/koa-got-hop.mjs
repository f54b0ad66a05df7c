// Reference hop (not a target baseline): the smallest Koa app that passes a request through the same tuned got
// instance as got-hop.mjs. Koa and got are the stack our users chose; this is the floor of any gateway built on the
// two, before it authenticates, validates or logs anything. Run as a child process:
// node bench/processes/koa-got-hop.mjs <upstream URL>.
import { importKoa } from '../workspace.mjs';
import { tunedGot } from './got-client.mjs';

/** @typedef {import('../workspace.mjs').GotMethod} GotMethod */

const target = process.argv[2];
const client = tunedGot;

const { default: Koa } = await importKoa();
const app = new Koa();
app.use(async (ctx) => {
  /** @type {Buffer[]} */
  const chunks = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  try {
    const upstream = await client(`${target}${ctx.url}`, {
      method: /** @type {GotMethod} */ (ctx.method),
      headers: { accept: 'application/json', ...(body ? { 'content-type': ctx.get('content-type') } : {}) },
      body,
    });
    ctx.status = upstream.statusCode;
    ctx.type = upstream.headers['content-type'] ?? 'application/json';
    ctx.body = upstream.rawBody;
  } catch {
    ctx.status = 502;
    ctx.body = { error: true, code: 'upstream_error', message: 'hop error' };
  }
});
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` });
});
server.keepAliveTimeout = 65_000;
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
