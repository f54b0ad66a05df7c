// The one tuned got instance of the reference hops (got-hop.mjs, koa-got-hop.mjs): the same got version and agent
// settings as core's UpstreamClient, with nothing a pass-through does not need (no retries, no decompression).
import { Agent } from 'node:http';
import { importGot } from '../workspace.mjs';

const { default: got } = await importGot();

export const tunedGot = got.extend({
  agent: { http: new Agent({ keepAlive: true, maxSockets: 256 }) },
  timeout: { request: 30_000 },
  followRedirect: false,
  throwHttpErrors: false,
  decompress: false,
  responseType: 'buffer',
  retry: { limit: 0 },
});

/**
 * The same instance with got's cache options emptied, as core's UpstreamClient empties them (through got's public
 * `mutableDefaults` and `cacheOptions`; docs/performance.md, "got's cache options"): the hop 'koa-tuned' of the report
 * and the hop of the sequential measure, to set the gateway beside a hop with the same got settings.
 */
// (typed as tunedGot, whose options it has: got's types do not take an instance extended by `mutableDefaults` for one)
export const porticoGot = /** @type {typeof tunedGot} */ (/** @type {unknown} */ (tunedGot.extend({ mutableDefaults: true })));
porticoGot.defaults.options.cacheOptions = {};
