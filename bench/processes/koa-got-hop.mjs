// Reference hop (not a target baseline): the Koa + got app of koa-got-app.mjs as a child process.
// node bench/processes/koa-got-hop.mjs <upstream URL>.
import { koaGotApp } from './koa-got-app.mjs';

const server = koaGotApp(process.argv[2] ?? '').listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` });
});
server.keepAliveTimeout = 65_000;
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
