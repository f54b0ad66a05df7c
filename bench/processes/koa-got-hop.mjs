// Reference hop (not a target baseline): the Koa + got app of koa-got-app.mjs as a child process.
// node bench/processes/koa-got-hop.mjs <upstream URL> [--got-options=portico]
// With --got-options=portico, got's request options are built as the gateway builds them (core's
// upstream/got-options.ts): the hop 'koa-tuned' of the report.
import { importGot, importGotOptions } from '../workspace.mjs';
import { koaGotApp } from './koa-got-app.mjs';

if (process.argv[3] === '--got-options=portico') {
  const { tuneGotOptions } = await importGotOptions();
  if (!tuneGotOptions((await importGot()).Options)) throw new Error("got's request options could not be built as the gateway builds them");
}

const server = koaGotApp(process.argv[2] ?? '').listen(0, '127.0.0.1', () => {
  process.send?.({ ready: true, url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}` });
});
server.keepAliveTimeout = 65_000;
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
