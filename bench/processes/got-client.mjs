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
