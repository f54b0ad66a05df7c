// The benchmark's upstream server: a minimal node:http server answering the example plugin's routes
// (packages/core/src/testing/example-plugin.ts) with small fixed JSON, precomputed so the upstream costs as little as
// possible per request. upstream.mjs runs it as a child process; sequential.mjs in its own process.
import { createServer } from 'node:http';

/** @param {number} n */
const item = (n) => ({
  id: `itm_${String(n).padStart(4, '0')}`,
  name: `Item ${n}`,
  status: n % 2 ? 'open' : 'closed',
  tags: ['a', 'b'],
  created_at: '2025-01-01T00:00:00.000Z',
});
const LIST = Buffer.from(JSON.stringify({ items: [1, 2, 3, 4, 5].map(item), next_cursor: null }));
const CREATED = Buffer.from(JSON.stringify({ ...item(42), name: 'bench', notified: true }));
const ONE = Buffer.from(JSON.stringify(item(1)));
const NOT_FOUND = Buffer.from(JSON.stringify({ message: 'no such route' }));

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {Buffer} body
 */
function reply(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

/** A new benchmark upstream (not listening yet). */
export function createUpstream() {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0] ?? '';
    // Read (and drop) the request body before answering, as a real upstream would.
    req.resume();
    req.on('end', () => {
      if (req.method === 'GET' && path === '/api/items') return reply(res, 200, LIST);
      if (req.method === 'POST' && path === '/api/items') return reply(res, 201, CREATED);
      if (req.method === 'GET' && path.startsWith('/api/v2/items/')) return reply(res, 200, ONE);
      if (req.method === 'GET' && path === '/api/items/current') return reply(res, 200, ONE);
      return reply(res, 404, NOT_FOUND);
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}
