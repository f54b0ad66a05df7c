// The bare baseline hop: a node:http reverse proxy with a keep-alive agent that pipes the request to the upstream
// and the response back, adding nothing else. The practical throughput limit of one Node process in the path.
// Run as a child process by run.mjs with the upstream URL as its argument; reports its URL over IPC.
import { Agent, createServer, request } from 'node:http';

const target = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

const server = createServer((req, res) => {
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host }, agent },
    (upstreamRes) => {
      res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
      upstreamRes.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end('{"error":true,"code":"upstream_error","message":"proxy error"}');
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
