// The benchmark's upstream: a minimal node:http server on loopback answering the example plugin's routes
// (packages/core/src/testing/example-plugin.ts) with small fixed JSON. Run as a child process by run.mjs; it reports
// its URL over IPC. The answers are precomputed so the upstream costs as little as possible per request.
import { createUpstream } from './upstream-server.mjs';

const server = createUpstream();
server.listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
