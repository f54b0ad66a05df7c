// A sequential keep-alive client for single-request latencies and for the requests that set a scenario up.
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * @typedef {object} Answer
 * @property {number} status
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {number} bytes
 * @property {string} text
 * @property {number} ms client-side latency
 */

/**
 * One request over a keep-alive connection; resolves with status, body text and the client-side latency in ms.
 * @param {string} url
 * @param {{ method?: string, headers?: Record<string, string>, body?: string }} [init]
 * @returns {Promise<Answer>}
 */
export function send(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method, headers, agent }, (res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          bytes: raw.length,
          text: raw.toString('utf8'),
          ms: performance.now() - started,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Closes the client's connection (before a load run, which opens its own). */
export function closeAgent() {
  agent.destroy();
}
