import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Got } from 'got';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { UpstreamClient } from './client.js';

// The client's got instance is set through got's public options only (docs/adr/0031-dependencies-through-public-api.md).
// Its cache options are empty: got spreads them into the options of every request it hands to http.request, which on
// Node 20 costs about ten times more when they are got's four default keys (docs/performance.md, "got's cache
// options"). A got that merged `cacheOptions = {}` into its defaults instead of replacing them would fail here.

const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ encoding: req.headers['accept-encoding'] ?? null, agent: req.headers['user-agent'] ?? null }));
});
let origin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("sends with got's cache options empty, and still asks for compressed answers with the gateway's user agent", async () => {
  const client = new UpstreamClient();
  try {
    const answer = await client.send({ method: 'GET', path: '/items', url: `${origin}/items` });
    expect(answer).toMatchObject({ status: 200, body: { encoding: 'gzip, deflate, br', agent: 'portico-gateway' } });
    const got = (client as unknown as { ready: Got }).ready;
    expect(Object.keys(got.defaults.options.cacheOptions)).toEqual([]);
  } finally {
    client.close();
  }
});
