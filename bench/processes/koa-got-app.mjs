// The reference hop's app (not a target baseline): the smallest Koa app that passes a request through the same tuned
// got instance as got-hop.mjs. Koa and got are the stack our users chose; this is the floor of any gateway built on
// the two, before it authenticates, validates or logs anything. koa-got-hop.mjs serves it as a child process;
// sequential.mjs in its own process.
import { importKoa } from '../workspace.mjs';
import { tunedGot } from './got-client.mjs';

/** @typedef {import('../workspace.mjs').GotMethod} GotMethod */

const { default: Koa } = await importKoa();

/**
 * @param {string} target the upstream's URL
 * @param {typeof tunedGot} [client] the got instance passing the request on (default: the tuned one, got's cache
 *   options as got sets them)
 */
export function koaGotApp(target, client = tunedGot) {
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
  return app;
}
