// Reference hop (not a target baseline): node:http + one shared, tuned got instance passing the request through, the
// same got version and agent settings as core's UpstreamClient. It shows the floor got puts under any gateway built on
// it, separating got's per-request cost from Portico's own. Run as a child process:
// node bench/processes/got-hop.mjs <upstream URL>.
import { createServer } from 'node:http';
import { tunedGot } from './got-client.mjs';

/** @typedef {import('../workspace.mjs').GotMethod} GotMethod */

const target = process.argv[2];
const client = tunedGot;

const server = createServer(async (req, res) => {
  /** @type {Buffer[]} */
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  try {
    const upstream = await client(`${target}${req.url}`, {
      method: /** @type {GotMethod} */ (req.method),
      headers: { accept: 'application/json', ...(body ? { 'content-type': req.headers['content-type'] } : {}) },
      body,
    });
    res.writeHead(upstream.statusCode, { 'content-type': upstream.headers['content-type'] ?? 'application/json' });
    res.end(upstream.rawBody);
  } catch {
    res.writeHead(502, { 'content-type': 'application/json' });
    res.end('{"error":true,"code":"upstream_error","message":"hop error"}');
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
