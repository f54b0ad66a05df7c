// Reference hop (not a target baseline): the Koa + got app of koa-got-app.mjs as a child process.
// node bench/processes/koa-got-hop.mjs <upstream URL> [--got-options=portico]
// With --got-options=portico, got's cache options are emptied as the gateway empties them (got-client.mjs): the hop
// 'koa-tuned' of the report.
import { porticoGot, tunedGot } from './got-client.mjs';
import { koaGotApp } from './koa-got-app.mjs';

const client = process.argv[3] === '--got-options=portico' ? porticoGot : tunedGot;

const server = koaGotApp(process.argv[2] ?? '', client).listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` });
});
server.keepAliveTimeout = 65_000;
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
