// Runs the official MCP server conformance suite (@modelcontextprotocol/conformance) against a real gateway.
// The gateway runs in sandbox mode with the installed plugins; the suite's client cannot send headers, so a loopback
// proxy in front of /api/mcp adds the API key (test infrastructure only: the gateway itself never accepts keyless calls).
// Scenarios that cannot apply to an API-key gateway are listed, each with its reason, in conformance-baseline.yml; the
// suite fails on any other failure and on a baseline entry that has started to pass.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, startGateway } from '../apps/gateway/dist/index.js';
import { silentLogger } from '../packages/core/dist/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = loadConfig({ ...process.env, PORTICO_DATA_DIR: mkdtempSync(join(tmpdir(), 'portico-conformance-')), PORTICO_PORT: '0' });
const gateway = await startGateway({ config, logger: silentLogger, sandbox: true });
const target = new URL(`${gateway.url}/api/mcp`);

const proxy = http.createServer((req, res) => {
  const upstream = http.request(
    {
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: req.method,
      headers: { ...req.headers, authorization: `Bearer ${gateway.createdKey.key}` },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${proxy.address().port}/mcp`;

const args = [
  'exec',
  'conformance',
  'server',
  '--url',
  url,
  '--expected-failures',
  join(root, 'conformance-baseline.yml'),
  ...process.argv.slice(2),
];
const code = await new Promise((resolve) => {
  const child = spawn('pnpm', args, { cwd: root, stdio: 'inherit' });
  child.on('exit', (exit) => resolve(exit ?? 1));
});
proxy.close();
await gateway.close();
process.exit(code);
